import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { getDb, openDatabase, type DatabaseHandle } from "@/lib/db/client";
import { createSimulatorTables } from "@/lib/db/simulator-tables";
import { cardProviderPaymentIntents, cardProviderRefunds } from "@/simulators/card/card-tables";
import { sandboxAccountOf, setCardProviderAccount } from "@/lib/providers/card/card-provider-accounts";
import { startStripeSimulator, type StripeSimulator } from "@/simulators/card/stripe-simulator";
import { recreateDatabase, recreateSiblingDatabase } from "../../scripts/lib/recreate-database";
import { apiClient, clientAuth } from "../support/api";
import { createMerchant } from "../support/factories";
import { capture, createIntent, proceed, refund, serverHeaders } from "../support/payments";
import { freePort, spawnGateway, type SpawnedGateway } from "../support/spawned-gateway";

/**
 * Issue 11: production takes a card payment through the Stripe adapter. The real `npm start`
 * entry (server/serve.mjs) runs with APP_ENV=production and CARD_PROVIDER_API_URL pointing at
 * the Stripe simulator over HTTP, with the service's keys set as `merchant card-keys` sets them;
 * the test then does what the merchant's server and the buyer's browser do: create, proceed,
 * open the card page, confirm with the publishable key as Stripe.js does, finalize, capture part
 * and refund part.
 */
let gateway: SpawnedGateway | null = null;
let simulator: StripeSimulator;
let baseUrl = "";
// The production gateway's own database: the suite's is sealed sandbox, which it would refuse.
let production: DatabaseHandle | undefined;
let productionUrl = "";
// Stripe's side: the simulator's books on a database of its own, as `npm run card-simulator` keeps them.
let stripe: DatabaseHandle | undefined;
let stripeUrl = "";

beforeAll(async () => {
  stripeUrl = await recreateSiblingDatabase(process.env.DATABASE_URL!, "_card_production_stripe");
  stripe = await openDatabase({ databaseUrl: stripeUrl, pgliteDir: "memory://", poolSize: 2 });
  await createSimulatorTables(stripe);
  simulator = await startStripeSimulator({ db: async () => stripe!.db });
  // The test database's key, so this process can seal keys and sign what the gateway checks.
  const gatewaySecret = (await getGatewayKey(await getDb())).toString("base64");
  productionUrl = await recreateSiblingDatabase(process.env.DATABASE_URL!, "_card_production");
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  gateway = await spawnGateway(port, {
    APP_ENV: "production",
    DATABASE_URL: productionUrl,
    GATEWAY_SECRET: gatewaySecret,
    // Plain http on this machine, as behind a proxy that ends TLS.
    TLS_TERMINATED_BY_PROXY: "true",
    CARD_PROVIDER_API_URL: simulator.url,
    WALLET_PROVIDER_URL: "https://wallet.invalid",
    WALLET_PROVIDER_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  });
  production = await openDatabase({ databaseUrl: productionUrl, pgliteDir: "memory://", poolSize: 2 });
}, 620_000);

afterAll(async () => {
  if (gateway && gateway.process.exitCode === null) gateway.process.kill("SIGKILL");
  await simulator?.close();
  await production?.close();
  await stripe?.close();
  if (productionUrl) await recreateDatabase(productionUrl, { dropOnly: true });
  if (stripeUrl) await recreateDatabase(stripeUrl, { dropOnly: true });
});

describe("a card payment in production, through the Stripe adapter", () => {
  it("is created, proceeded, confirmed by Stripe.js's request, finalized, captured and refunded in part", async () => {
    const api = apiClient(baseUrl);
    const db = production!.db;
    const merchant = await createMerchant({}, db);
    // What `npm run merchant -- card-keys` stores: keys the simulator recognises as one account.
    const publishableKey = `pk_test_prod${Date.now().toString(36)}`;
    const keys = sandboxAccountOf(await getGatewayKey(stripe!.db), publishableKey);
    await setCardProviderAccount(db, { clientId: merchant.clientId, country: "DZA", ...keys });

    const intent = await createIntent(api, merchant, { amount: 80.5, captureMethod: "RESERVATION" });
    const proceeded = await proceed(api, intent.paymentId, serverHeaders(merchant), {
      paymentMethodCode: "CARD_PROVIDER",
    });
    expect(proceeded.status).toBe(200);
    const payUrl = (proceeded.body.data as { metadata: { payUrl: string } }).metadata.payUrl;

    // The page loads Stripe's own script, its CSP admits exactly Stripe.js's hosts, and it
    // carries what Stripe.js confirms with: the account's publishable key and the intent's secret.
    const page = await fetch(payUrl);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("https://js.stripe.com/v3");
    expect(page.headers.get("content-security-policy")).toContain(
      "frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com",
    );
    expect(html).toContain(publishableKey);
    const clientSecret = /pi_[A-Za-z0-9]+_secret_[0-9a-f]+/.exec(html)?.[0];
    expect(clientSecret).toBeDefined();
    const paymentIntentId = clientSecret!.split("_secret_")[0]!;

    // The buyer's browser → Stripe (here its simulator): card details never reach the gateway.
    const confirm = await fetch(`${simulator.url}/v1/payment_intents/${paymentIntentId}/confirm`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        key: publishableKey,
        client_secret: clientSecret!,
        "payment_method_data[type]": "card",
        "payment_method_data[card][number]": "4242424242424242",
        "payment_method_data[card][exp_month]": "12",
        "payment_method_data[card][exp_year]": String(new Date().getUTCFullYear() + 3),
        "payment_method_data[card][cvc]": "737",
        return_url: `${baseUrl}/en/pay/card/${intent.paymentId}/complete`,
      }).toString(),
    });
    const confirmed = (await confirm.json()) as { status: string; payment_method: string };
    expect(confirm.status).toBe(200);
    expect(confirmed.status).toBe("requires_capture");

    const finalized = await api.post(
      `/api/v1/payments/intents/${intent.paymentId}/card-provider-finalize`,
      { paymentIntentId, externalCardId: confirmed.payment_method },
      { "x-client-secret": intent.clientSecret },
    );
    expect(finalized.status).toBe(200);
    const check = () => api.get(`/api/v1/payments/intents/${intent.paymentId}/check`, serverHeaders(merchant));
    expect(((await check()).body.data as { statusCode: number }).statusCode).toBe(13);

    const captured = await capture(api, merchant, intent.paymentId, { amount: 60 });
    expect(captured.status).toBe(200);
    expect((captured.body.data as { statusCode: number }).statusCode).toBe(2);
    const refunded = await refund(api, merchant, intent.paymentId, { description: "one item back", amount: 20 });
    expect(refunded.status).toBe(200);
    expect(((await check()).body.data as { statusCode: number }).statusCode).toBe(16);

    // Stripe's books (the simulator's) agree: 60.00 received, 20.00 refunded, once each.
    const [books] = await stripe!.db
      .select()
      .from(cardProviderPaymentIntents)
      .where(eq(cardProviderPaymentIntents.id, paymentIntentId));
    expect(books).toMatchObject({
      accountKey: publishableKey,
      status: "succeeded",
      amountReceivedMinor: 6000,
      amountRefundedMinor: 2000,
    });
    expect(
      await stripe!.db
        .select()
        .from(cardProviderRefunds)
        .where(eq(cardProviderRefunds.paymentIntentId, paymentIntentId)),
    ).toHaveLength(1);
    // Every provider call went to the simulator over HTTP with the service's secret key.
    expect(simulator.requests).toEqual(
      expect.arrayContaining([
        "POST /v1/customers",
        "POST /v1/payment_intents",
        `POST /v1/payment_intents/${paymentIntentId}/capture`,
        "POST /v1/refunds",
      ]),
    );
  }, 120_000);

  // Issue 42: the short addresses a buyer opens (a checkoutUrl, a payment link's url) are served
  // in the buyer's language at once by the proxy's rewrite, under npm start in production as in
  // the sandbox: no redirect hop, and no hang. (A rewrite made by the proxy itself hung here: its
  // URL named localhost, the server was given 127.0.0.1, so Next.js proxied the request as to
  // another server; next.config.mjs's rewrite is a path inside the app.)
  it("serves a checkoutUrl and a payment link's url in the buyer's language at once", async () => {
    const api = apiClient(baseUrl);
    const merchant = await createMerchant({}, production!.db);
    const intent = await createIntent(api, merchant, { amount: 80.5 });
    const checkoutUrl = new URL((intent as typeof intent & { checkoutUrl: string }).checkoutUrl);
    expect(checkoutUrl.pathname).toMatch(/^\/pay\/checkout\//);
    const link = await api.post(
      "/api/v1/payment-links",
      { title: "Bag", amount: 10, currency: "DZD", countryCode: "DZA", locale: "fr" },
      clientAuth(merchant),
    );
    expect(link.status).toBe(201);
    const linkUrl = new URL((link.body.data as { url: string }).url);
    for (const address of [checkoutUrl, linkUrl]) {
      const started = Date.now();
      const page = await fetch(`${baseUrl}${address.pathname}${address.search}`, {
        redirect: "manual",
        headers: { "accept-language": "ar-DZ,ar;q=0.9" },
        signal: AbortSignal.timeout(20_000),
      });
      expect(page.status, address.pathname).toBe(200);
      expect(page.headers.get("location")).toBeNull();
      expect(page.headers.get("cache-control")).toContain("no-store");
      const html = await page.text();
      expect(html).toContain('<html lang="ar" dir="rtl"');
      expect(Date.now() - started).toBeLessThan(20_000);
    }
  }, 60_000);
});
