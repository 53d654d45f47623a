import { and, eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { notifications, services } from "@/lib/db/schema";
import { rotateClientSecret } from "@/lib/merchants/rotate-client-secret";
import { deliverDueNotifications } from "@/lib/notifications/deliver-due-notifications";
import { getCardPage } from "@/lib/hosted/views/card-page-view";
import { resendPaymentOtp } from "@/lib/payment-methods/wallet/hosted/resend-payment-otp";
import { submitPaymentOtp } from "@/lib/payment-methods/wallet/hosted/submit-payment-otp";
import { sandboxCardProvider } from "@/simulators/card/sandbox-card-provider";
import { apiClient, clientAuth, merchantAuth, userAuth, type ApiClient } from "../support/api";
import {
  completeOnPage,
  confirmAtProvider,
  finalize,
  payWithNewCard,
  proceedWithCard,
  savedCardsOf,
  storedCardData,
  TEST_CARDS,
  TEST_CVC,
} from "../support/cards";
import { findStoredPlaintext } from "../support/database-scan";
import { createMerchant, randomPhone } from "../support/factories";
import { startTestGateway, type TestGateway } from "../support/gateway-server";
import { advanceClock, createIntent, proceed, serverHeaders, tokenOf } from "../support/payments";
import { dumpDatabase, findSecrets, paymentSecretPart, type Secret } from "../support/security/secret-scan";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/**
 * Issue 7, security suite item 7: after a full run of journeys (onboarding, customers,
 * tokens, wallet payments with OTP, captures, refunds, cards with every test number, QR,
 * webhooks, and the failures along the way), neither the database nor the log output holds
 * a client secret, an access or refresh token, a payment client secret, a page token, the
 * OTP, a full card number or CVC, or a webhook secret.
 *
 * The logs are pino's real output: lib/log.ts's own createLogger (redaction and scrubbing
 * included) writing into memory at the most verbose level, instead of to stdout.
 */

const logged = vi.hoisted(() => ({ lines: [] as string[] }));
vi.mock("@/lib/log", async (importOriginal) =>
  (await import("../support/memory-log")).memoryLog(importOriginal, logged.lines, "trace"),
);

let gateway: TestGateway;
let api: ApiClient;
let receiver: WebhookReceiver;
const consoleOutput: string[] = [];
/** Everything secret the journeys were handed or typed, to look for afterwards. */
const secrets: Secret[] = [];
const remember = (kind: string, value: string | undefined | null) => {
  if (value) secrets.push({ kind, value });
};

beforeAll(async () => {
  for (const method of ["log", "info", "warn", "error", "debug"] as const) {
    vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
      consoleOutput.push(args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg))).join(" "));
    });
  }
  gateway = await startTestGateway();
  api = apiClient(gateway.baseUrl);
  // The merchant's endpoint fails each notification's first attempt, so retries are recorded too.
  receiver = await startWebhookReceiver((request, received) =>
    received.filter((item) => item.headers["webhook-id"] === request.headers["webhook-id"]).length === 1
      ? { status: 500 }
      : { status: 204 },
  );
  await runJourneys();
}, 180_000);
afterAll(async () => {
  vi.restoreAllMocks();
  await receiver.close();
  await gateway.close();
});

async function runJourneys() {
  const db = await getDb();
  const merchant = await createMerchant({ webhookUrl: receiver.url("/hooks") });
  remember("client secret", merchant.clientSecret);
  remember("webhook secret", merchant.webhookSecret);
  remember("webhook secret key", merchant.webhookSecret.replace(/^whsec_/, ""));
  const rotated = await rotateClientSecret(db, merchant.clientId);
  remember("rotated client secret", rotated.clientSecret);
  const shop = { ...merchant, clientSecret: rotated.clientSecret };
  const server = clientAuth(shop);

  // Credentials used wrongly along the way: refused, and not kept or logged either.
  await api.get("/api/v1/customers/search/%2B213555000000", clientAuth(merchant)); // the old secret
  await api.call("POST", "/api/v1/customer-access-token/refresh", {
    rawBody: `{"refreshToken":"crt_${"x".repeat(40)}","accessToken":`,
    headers: { ...server, "content-type": "application/json" },
  });

  // Customers and their tokens: create, read, update, generate, refresh, reuse, revoke.
  const phone = randomPhone();
  const created = await api.post("/api/v1/customers", { name: "Yasmine", phone, email: "yasmine@example.com" }, server);
  const customerId = created.body.data.id as string;
  await api.get(`/api/v1/customers/${customerId}`, server);
  await api.put(`/api/v1/customers/${customerId}`, { name: "Yasmine B." }, server);
  await api.get(`/api/v1/customers/search/${encodeURIComponent(phone)}`, server);
  const first = (await api.post("/api/v1/customer-access-token", { customerId }, server)).body.data;
  const second = (await api.post("/api/v1/customer-access-token/refresh", first, server)).body.data;
  for (const pair of [first, second]) {
    remember("access token", pair.accessToken);
    remember("refresh token", pair.refreshToken);
  }
  await api.post("/api/v1/customer-access-token/refresh", first, server); // reuse: the family is revoked
  const live = (await api.post("/api/v1/customer-access-token", { customerId }, server)).body.data;
  remember("access token", live.accessToken);
  remember("refresh token", live.refreshToken);
  const asCustomer = userAuth(shop, live.accessToken, { "x-platform": "WEB" });
  await api.get("/api/v1/cards", userAuth(shop, second.accessToken, { "x-platform": "WEB" })); // a dead token

  // Wallet, DIRECT with OTP: a wrong code, a resend, the right code.
  const direct = await createIntent(api, shop, { amount: 120, userId: phone });
  remember("payment client secret", paymentSecretPart(direct.clientSecret));
  const proceeded = await proceed(api, direct.paymentId, serverHeaders(shop, { "idempotency-key": "otp-direct-1" }));
  const directToken = tokenOf(proceeded.body.data.metadata.payUrl);
  remember("page token", directToken);
  await submitPaymentOtp(db, { paymentId: direct.paymentId, token: directToken, code: "000000" });
  await advanceClock(api, shop, 31);
  await resendPaymentOtp(db, { paymentId: direct.paymentId, token: directToken });
  await submitPaymentOtp(db, { paymentId: direct.paymentId, token: directToken, code: "123456" });
  await submitPaymentOtp(db, { paymentId: direct.paymentId, token: directToken, code: "123456" }).catch(
    () => undefined,
  );

  // Wallet, RESERVATION with OTP from the browser (merchant_auth), then capture and refunds.
  const reserved = await createIntent(api, shop, { amount: 300, userId: phone, captureMethod: "RESERVATION" });
  remember("payment client secret", paymentSecretPart(reserved.clientSecret));
  const browser = merchantAuth(shop, reserved.clientSecret, { "x-platform": "WEB", origin: "https://shop.example" });
  await api.get("/api/v1/payment-methods", browser);
  const viaBrowser = await proceed(api, reserved.paymentId, browser);
  const reservedToken = tokenOf(viaBrowser.body.data.metadata.payUrl);
  remember("page token", reservedToken);
  await submitPaymentOtp(db, { paymentId: reserved.paymentId, token: reservedToken, code: "123456" });
  await api.get(`/api/v1/payments/intents/${reserved.paymentId}/check`, browser);
  await api.get(
    `/api/v1/payments/intents/${reserved.paymentId}/check`,
    merchantAuth(shop, `${reserved.clientSecret.slice(0, -4)}0000`),
  );
  await api.post(
    `/api/v1/payments/intents/${reserved.paymentId}/capture`,
    { amount: 200 },
    { ...server, "idempotency-key": "capture-1" },
  );
  await api.post(
    `/api/v1/payments/${reserved.paymentId}/refund`,
    { description: "damaged", amount: 50, reason: "R1" },
    server,
  );
  await api.post(
    `/api/v1/payments/${reserved.paymentId}/refund`,
    { description: "rest" },
    { ...server, "idempotency-key": "refund-2" },
  );

  // Wallet under user_auth (no OTP), a release, and a payment failed by five wrong codes.
  const own = await createIntent(api, shop, { amount: 40, userId: phone, captureMethod: "RESERVATION" });
  remember("payment client secret", paymentSecretPart(own.clientSecret));
  await api.get("/api/v1/payment-methods?amount=40", { ...asCustomer, "x-country-code": "DZA" });
  await proceed(api, own.paymentId, asCustomer);
  await api.post(`/api/v1/payments/intents/${own.paymentId}/release`, {}, server);
  const guessed = await createIntent(api, shop, { amount: 10 });
  remember("payment client secret", paymentSecretPart(guessed.clientSecret));
  const guessedToken = tokenOf((await proceed(api, guessed.paymentId, serverHeaders(shop))).body.data.metadata.payUrl);
  remember("page token", guessedToken);
  for (const code of ["111111", "222222", "333333", "444444", "555555", "123456"]) {
    await submitPaymentOtp(db, { paymentId: guessed.paymentId, token: guessedToken, code }).catch(() => undefined);
  }

  // QR: the wallet app approves.
  const qr = await createIntent(api, shop, { amount: 15, transactionType: "QR_CODE" });
  remember("payment client secret", paymentSecretPart(qr.clientSecret));
  const qrProceed = await proceed(api, qr.paymentId, serverHeaders(shop));
  const qrToken = new URL(qrProceed.body.data.metadata.qrImageUrl).searchParams.get("token");
  remember("QR page token", qrToken);
  await api.get(`/api/v1/qr/${qr.paymentId}/status?token=${qrToken}`);
  await api.post(`/api/v1/sandbox/payments/${qr.paymentId}/qr`, { outcome: "approve" }, server);

  // Cards: every test number, saving, a saved card again, 3DS, finalize by the API, a bad number, delete.
  const cardBuyer = randomPhone();
  const visa = await payWithNewCard(api, shop, { card: TEST_CARDS.visa, save: true, intent: { userId: cardBuyer } });
  for (const card of [TEST_CARDS.mastercard, TEST_CARDS.declined, TEST_CARDS.insufficientFunds]) {
    const paid = await payWithNewCard(api, shop, { card, intent: { userId: cardBuyer, amount: 25 } });
    remember("page token", paid.token);
    remember("payment client secret", paymentSecretPart(paid.clientSecret));
  }
  remember("page token", visa.token);
  remember("payment client secret", paymentSecretPart(visa.clientSecret));

  const secure = await proceedWithCard(api, shop, {
    intent: { userId: cardBuyer, amount: 30, captureMethod: "RESERVATION" },
  });
  const challenged = await confirmAtProvider(api, secure, { card: TEST_CARDS.threeDSecure, save: true });
  const challengeSecret = new URL(challenged.body.next_action.redirect_to_url.url).searchParams.get("client_secret")!;
  remember("card provider client secret", challengeSecret);
  await sandboxCardProvider.completeChallenge(db, {
    intentId: challenged.paymentIntentId,
    clientSecret: challengeSecret,
    outcome: "complete",
  });
  await completeOnPage(secure, challenged.paymentIntentId);
  await api.post(`/api/v1/payments/intents/${secure.paymentId}/capture`, {}, server);

  const [savedCard] = await savedCardsOf(
    (await api.get(`/api/v1/customers/search/${encodeURIComponent(cardBuyer)}`, server)).body.data.id,
  );
  const again = await proceedWithCard(api, shop, {
    intent: { userId: cardBuyer, amount: 35 },
    body: { cardId: savedCard!.id },
  });
  remember("payment client secret", paymentSecretPart(again.clientSecret));
  const page = await getCardPage(db, { paymentId: again.paymentId, token: again.token });
  remember("card provider client secret", page?.confirmation?.clientSecret);
  const reused = await confirmAtProvider(api, again, { savedPaymentMethodId: savedCard!.providerPaymentMethodId });
  await finalize(api, again.paymentId, again.clientSecret, {
    paymentIntentId: reused.paymentIntentId,
    externalCardId: savedCard!.providerPaymentMethodId,
  });

  const typo = await proceedWithCard(api, shop, { intent: { userId: cardBuyer, amount: 5 } });
  await confirmAtProvider(api, typo, { card: "4242 4242 4242 4241", cvc: TEST_CVC });
  await confirmAtProvider(api, typo, { card: TEST_CARDS.visa, cvc: "73" });

  const cardCustomer = await api.get(`/api/v1/customers/search/${encodeURIComponent(cardBuyer)}`, server);
  const cardSession = (
    await api.post("/api/v1/customer-access-token", { customerId: cardCustomer.body.data.id }, server)
  ).body.data;
  remember("access token", cardSession.accessToken);
  remember("refresh token", cardSession.refreshToken);
  await api.get("/api/v1/cards", userAuth(shop, cardSession.accessToken, { "x-platform": "WEB" }));
  await api.delete(
    `/api/v1/cards/${savedCard!.id}`,
    undefined,
    userAuth(shop, cardSession.accessToken, { "x-country-code": "DZA" }),
  );
  await api.delete("/api/v1/customer-access-token/revoke", { accessToken: cardSession.accessToken }, server);

  // Webhooks: every notification of this service delivered, the first attempt of each failing.
  const [service] = await db.select({ id: services.id }).from(services).where(eq(services.code, shop.service));
  const mine = eq(notifications.serviceId, service!.id);
  const deadline = Date.now() + 60_000;
  for (;;) {
    // Another suite's cleanup may abandon what is pending on the shared database: ours go on.
    await db
      .update(notifications)
      .set({ status: "pending", nextAttemptAt: new Date() })
      .where(and(eq(notifications.status, "abandoned"), mine));
    await deliverDueNotifications(db, { schedule: [0.2], claimForMs: 1_000 });
    const rows = await db.select({ status: notifications.status }).from(notifications).where(mine);
    if (rows.length > 0 && rows.every((row) => row.status === "delivered")) break;
    if (Date.now() > deadline) throw new Error(`webhooks not delivered: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await api.get("/api/v1/sandbox/webhooks?limit=200", server);
}

describe("secrets at rest and in logs, after every journey", () => {
  it("the journeys ran: webhooks were delivered signed with the service's secret, and the logs were captured", () => {
    expect(receiver.received.length).toBeGreaterThan(10);
    const verifier = new Webhook(secrets.find((secret) => secret.kind === "webhook secret")!.value);
    const delivered = receiver.received.at(-1)!;
    expect(() => verifier.verify(delivered.body, delivered.headers)).not.toThrow();
    const requestLines = logged.lines.filter((line) => line.includes('"msg":"request"'));
    expect(requestLines.length).toBeGreaterThan(40);
    expect(requestLines.every((line) => /"requestId":"[^"]+"/.test(line))).toBe(true);
    expect(logged.lines.some((line) => line.includes('"msg":"webhook attempt failed"'))).toBe(true);
    // The scanner itself finds what it looks for.
    for (const secret of secrets)
      expect(findSecrets(JSON.stringify({ leaked: `x ${secret.value} y` }), secrets), secret.kind).not.toEqual([]);
    expect(findSecrets('{"cvc":"737"}', [])).not.toEqual([]);
    expect(findSecrets('{"code":"123456"}', [])).not.toEqual([]);
    expect(findSecrets('{"phone":"+213512345678","amountMinor":123456}', [])).toEqual([]);
    expect(secrets.filter((secret) => secret.kind === "access token").length).toBeGreaterThan(3);
  });

  const isPageToken = (secret: Secret) => /page token/.test(secret.kind);

  it("no table holds a client, payment or webhook secret, token, OTP, card number or CVC in plain text", async () => {
    const credentials = secrets.filter((secret) => !isPageToken(secret));
    const findings: string[] = [];
    for (const { table, row } of await dumpDatabase()) {
      for (const finding of findSecrets(row, credentials)) findings.push(`${table}: ${finding}`);
    }
    expect(findings).toEqual([]);
    // And the suites' own scanners agree.
    expect(await findStoredPlaintext(credentials.map((secret) => secret.value))).toEqual([]);
    expect(await storedCardData()).toEqual([]);
  });

  it("no table keeps a hosted page token (ARCHITECTURE.md: HMACs of the payment id, never stored)", async () => {
    const findings: string[] = [];
    for (const { table, row } of await dumpDatabase()) {
      for (const secret of secrets.filter(isPageToken))
        if (row.includes(secret.value)) findings.push(`${table}: ${secret.kind}`);
    }
    expect(findings).toEqual([]);
  });

  it("no log line holds a secret, a token, the OTP, a card number or the CVC", () => {
    const findings: string[] = [];
    for (const line of [...logged.lines, ...consoleOutput]) {
      for (const finding of findSecrets(line, secrets)) findings.push(`${finding} in ${line.slice(0, 200)}`);
    }
    expect(findings).toEqual([]);
  });
});
