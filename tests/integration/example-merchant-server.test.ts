import { readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { deliverDueNotifications } from "@/lib/notifications/deliver-due-notifications";
import { proceedFromCheckout } from "@/lib/payments/hosted/proceed-from-checkout";
import { submitPaymentOtp } from "@/lib/payment-methods/wallet/hosted/submit-payment-otp";
import { startMerchantServer, type MerchantServer } from "../../examples/merchant-server/server";
import { createMerchant } from "../support/factories";
import { tokenOf } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";

/**
 * Issue 14: the typed client is generated from openapi.json and current, and the example
 * merchant server built on it takes payments against a running gateway: checkout redirect,
 * the buyer's return confirmed by check, signed webhooks verified, capture and refund.
 */

const ROOT = path.resolve(import.meta.dirname, "../..");
const gateway = useTestGateway();
let shop: MerchantServer;
let merchant: OnboardedMerchant;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  const port = await freePort();
  const shopUrl = `http://127.0.0.1:${port}`;
  merchant = await createMerchant({
    webhookUrl: `${shopUrl}/webhooks`,
    redirectUrl: `${shopUrl}/return`,
    origins: [shopUrl],
  });
  shop = await startMerchantServer({
    gateway: {
      baseUrl: gateway.baseUrl,
      clientId: merchant.clientId,
      clientSecret: merchant.clientSecret,
      service: merchant.service,
    },
    webhookSecret: merchant.webhookSecret,
    port,
  });
});
afterAll(() => shop?.close());

/**
 * The shop's checkout sends the buyer to the gateway's hosted checkout (with its returnUrl);
 * the buyer chooses the wallet there and types the sandbox code.
 */
async function buyerPays(form: Record<string, string> = {}) {
  const response = await fetch(`${shop.url}/checkout`, {
    method: "POST",
    body: new URLSearchParams(form),
    redirect: "manual",
  });
  expect(response.status).toBe(303);
  const checkoutUrl = new URL(response.headers.get("location")!);
  expect(checkoutUrl.pathname).toMatch(/^\/pay\/checkout\/[0-9a-f-]{36}$/);
  const returnUrl = checkoutUrl.searchParams.get("returnUrl")!;
  expect(returnUrl).toBe(`${shop.url}/return`);
  const paymentId = checkoutUrl.pathname.split("/").at(-1)!;
  const token = tokenOf(checkoutUrl.toString());
  const db = await getDb();
  expect(await proceedFromCheckout(db, { paymentId, token, code: "WALLET_V2", locale: "en", returnUrl })).toEqual({
    outcome: "proceeded",
    next: "otp",
  });
  const paid = await submitPaymentOtp(db, { paymentId, token, code: "123456" });
  return { paymentId, statusCode: paid.statusCode };
}

describe("the generated TypeScript client", () => {
  it("is what openapi-typescript generates from the committed openapi.json (npm run client:generate)", async () => {
    const committed = readFileSync(path.join(ROOT, "clients/typescript/schema.d.ts"), "utf8");
    const generated = astToString(await openapiTS(JSON.parse(readFileSync(path.join(ROOT, "openapi.json"), "utf8"))));
    // The CLI adds its banner; the types are what must match.
    expect(committed.slice(committed.indexOf("export "))).toBe(generated.slice(generated.indexOf("export ")));
  });
});

describe("the example merchant server", () => {
  it("takes a wallet payment: to hosted checkout, return confirmed by check, signed webhook verified", async () => {
    const { paymentId, statusCode } = await buyerPays();
    expect(statusCode).toBe(2);
    const returned = await fetch(`${shop.url}/return?paymentId=${paymentId}&statusCode=2`);
    expect(await returned.text()).toBe(`Payment succeeded: 1500.5 DZD (${paymentId})`);

    await deliverDueNotifications(await getDb());
    expect(shop.events.filter((event) => event.data.paymentId === paymentId).map((event) => event.type)).toEqual([
      "payment.succeeded",
    ]);
  });

  it("refuses a notification whose signature does not verify", async () => {
    const forged = await fetch(`${shop.url}/webhooks`, {
      method: "POST",
      headers: {
        "webhook-id": "msg_forged",
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": "v1,Zm9yZ2Vk",
      },
      body: JSON.stringify({ id: "msg_forged", type: "payment.succeeded" }),
    });
    expect(forged.status).toBe(400);
    expect(shop.events.some((event) => event.id === "msg_forged")).toBe(false);
  });

  it("captures part of a reservation, then refunds part and the rest", async () => {
    const { paymentId, statusCode } = await buyerPays({ captureMethod: "RESERVATION" });
    expect(statusCode).toBe(13);
    const post = (action: string, body: object) =>
      fetch(`${shop.url}/orders/${paymentId}/${action}`, { method: "POST", body: JSON.stringify(body) }).then(
        async (r) => ({ status: r.status, body: await r.json() }),
      );

    const captured = await post("capture", { amount: 1000 });
    expect(captured).toMatchObject({ status: 200, body: { data: { statusCode: 2, metaData: { payUrl: "" } } } });
    const partial = await post("refund", { amount: 400 });
    expect(partial).toMatchObject({
      status: 200,
      body: { data: { statusCode: 4, refundedAmount: 400, remainingRefundableAmount: 600 } },
    });
    const rest = await post("refund", {});
    expect(rest).toMatchObject({
      status: 200,
      body: { data: { statusCode: 4, refundedAmount: 600, remainingRefundableAmount: 0 } },
    });
    const again = await post("refund", {});
    expect(again.status).toBe(409);
    expect(again.body.error.name).toBe("invalid_state");

    await deliverDueNotifications(await getDb());
    expect(shop.events.filter((event) => event.data.paymentId === paymentId).map((event) => event.type)).toEqual([
      "payment.pre_authorized",
      "payment.captured",
      "payment.refunded",
      "payment.refunded",
    ]);
  });
});
