import { beforeAll, describe, expect, it, vi } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { services } from "@/lib/db/schema";
import type { ClientPrincipal } from "@/lib/auth/principal";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { listPaymentTimeline } from "@/lib/console/payments/payment-timeline";
import { capturePayment } from "@/lib/payments/operations/capture-payment";
import { refundPayment } from "@/lib/payments/operations/refund-payment";
import { releasePayment } from "@/lib/payments/operations/release-payment";
import { expireOpenPayments, releaseStaleReservations } from "@/lib/payments/operations/expire-payments";
import { reconcileCardPayments } from "@/lib/payment-methods/card/reconcile-card-payments";
import { submitPaymentOtp } from "@/lib/payment-methods/wallet/hosted/submit-payment-otp";
import { proceedFromCheckout } from "@/lib/payments/hosted/proceed-from-checkout";
import { startLinkPayment } from "@/lib/payment-links/start-link-payment";
import { consoleCause } from "@/lib/payments/core/state-change-cause";
import { redeliverPendingEvents } from "@/simulators/card/sandbox-event-delivery";
import { clientAuth, userAuth } from "../support/api";
import { createCustomerToken, createMerchant, randomPhone } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  advanceClock,
  capture,
  createIntent,
  payWithOtp,
  proceed,
  refund,
  release,
  serverHeaders,
  tokenOf,
} from "../support/payments";
import {
  TEST_CARDS,
  cardPaymentOf,
  completeOnPage,
  confirmAtProvider,
  finalize,
  proceedWithCard,
} from "../support/cards";

// The sandbox card provider posts its event to the gateway as soon as a card is confirmed, which
// would race the buyer's return for the payment's change. Here nothing is posted by itself: each
// test delivers the event (or not) when its path calls for it.
vi.mock("@/simulators/card/sandbox-event-delivery", async (original) => ({
  ...(await original<typeof import("@/simulators/card/sandbox-event-delivery")>()),
  deliverEventsSoon: () => undefined,
}));

const { api } = useTestGateway();
let merchant: OnboardedMerchant;
let principal: ClientPrincipal;
const OPERATOR = "ops@shop.example";

beforeAll(async () => {
  merchant = await createMerchant();
  const [service] = await (await getDb()).select().from(services).where(eq(services.code, merchant.service));
  principal = {
    mode: "client",
    service: { ...service!, countries: service!.countries },
    credentialId: "console",
    clientId: "console",
  } as ClientPrincipal;
});

/** The timeline as [to, cause] pairs, the console user's email standing for `console`. */
async function timeline(paymentId: string) {
  const entries = await listPaymentTimeline(await getDb(), { paymentId });
  return entries.map((entry) => [entry.to, entry.cause.kind === "console" ? entry.cause.userEmail : entry.cause.kind]);
}

async function otpToken(paymentId: string) {
  return tokenOf((await proceed(api, paymentId, serverHeaders(merchant))).body.data.metadata.payUrl);
}

describe("the timeline records who made each change, for every path into every state", () => {
  it("create through the API: CREATED by api, from no state", async () => {
    const intent = await createIntent(api, merchant);
    const [created] = await listPaymentTimeline(await getDb(), { paymentId: intent.paymentId });
    expect(created).toMatchObject({ from: null, to: "CREATED", cause: { kind: "api" } });
    expect(await timeline(intent.paymentId)).toEqual([["CREATED", "api"]]);
  });

  it("a repeated create (same actionId) records no second creation", async () => {
    const intent = await createIntent(api, merchant);
    await api.post(`/api/v1/payments/intents?countryCode=DZA`, intent.body, clientAuth(merchant));
    expect(await timeline(intent.paymentId)).toEqual([["CREATED", "api"]]);
  });

  it("proceed by the merchant: REQUIRES_ACTION by api; the buyer's OTP: SUCCEEDED by buyer", async () => {
    const intent = await createIntent(api, merchant);
    await payWithOtp(api, merchant, intent.paymentId);
    expect(await timeline(intent.paymentId)).toEqual([
      ["CREATED", "api"],
      ["REQUIRES_ACTION", "api"],
      ["SUCCEEDED", "buyer"],
    ]);
  });

  it("the buyer's OTP on a reservation: PRE_AUTHORIZED by buyer", async () => {
    const intent = await createIntent(api, merchant, { captureMethod: "RESERVATION" });
    await payWithOtp(api, merchant, intent.paymentId);
    expect((await timeline(intent.paymentId)).at(-1)).toEqual(["PRE_AUTHORIZED", "buyer"]);
  });

  it("five wrong codes: FAILED by buyer", async () => {
    const intent = await createIntent(api, merchant);
    const token = await otpToken(intent.paymentId);
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await submitPaymentOtp(await getDb(), { paymentId: intent.paymentId, token, code: "999999" });
    }
    expect((await timeline(intent.paymentId)).at(-1)).toEqual(["FAILED", "buyer"]);
  });

  it("a balance that cannot cover the amount at proceed: FAILED by api", async () => {
    const intent = await createIntent(api, merchant, { amount: 10_000.01 });
    await proceed(api, intent.paymentId, serverHeaders(merchant));
    expect(await timeline(intent.paymentId)).toEqual([
      ["CREATED", "api"],
      ["FAILED", "api"],
    ]);
  });

  it("the customer's own proceed (user_auth, no OTP): PROCESSING then SUCCEEDED, both by api", async () => {
    const { accessToken, customer } = await createCustomerToken(merchant);
    const intent = await createIntent(api, merchant, { userId: customer.phone });
    await proceed(api, intent.paymentId, userAuth(merchant, accessToken, { "x-platform": "WEB" }));
    expect(await timeline(intent.paymentId)).toEqual([
      ["CREATED", "api"],
      ["PROCESSING", "api"],
      ["SUCCEEDED", "api"],
    ]);
  });

  it("capture, release and refunds through the API: by api", async () => {
    const captured = await createIntent(api, merchant, { captureMethod: "RESERVATION" });
    await payWithOtp(api, merchant, captured.paymentId);
    await capture(api, merchant, captured.paymentId, { amount: 10 });
    await refund(api, merchant, captured.paymentId, { description: "part", amount: 4 });
    await refund(api, merchant, captured.paymentId, { description: "rest" });
    expect((await timeline(captured.paymentId)).slice(3)).toEqual([
      ["SUCCEEDED", "api"],
      ["PARTIALLY_REFUNDED", "api"],
      ["REFUNDED", "api"],
    ]);

    const released = await createIntent(api, merchant, { captureMethod: "RESERVATION" });
    await payWithOtp(api, merchant, released.paymentId);
    await release(api, merchant, released.paymentId);
    expect((await timeline(released.paymentId)).at(-1)).toEqual(["CANCELED", "api"]);
  });

  it("capture, release and refunds by a console user: by that user's email", async () => {
    const db = await getDb();
    const cause = consoleCause(OPERATOR);
    const captured = await createIntent(api, merchant, { captureMethod: "RESERVATION" });
    await payWithOtp(api, merchant, captured.paymentId);
    await capturePayment(db, { principal, paymentId: captured.paymentId, cause, input: {} });
    await refundPayment(db, {
      principal,
      paymentId: captured.paymentId,
      cause,
      input: { description: "part", amount: 5 },
    });
    await refundPayment(db, { principal, paymentId: captured.paymentId, cause, input: { description: "rest" } });
    expect((await timeline(captured.paymentId)).slice(3)).toEqual([
      ["SUCCEEDED", OPERATOR],
      ["PARTIALLY_REFUNDED", OPERATOR],
      ["REFUNDED", OPERATOR],
    ]);

    const released = await createIntent(api, merchant, { captureMethod: "RESERVATION" });
    await payWithOtp(api, merchant, released.paymentId);
    await releasePayment(db, { principal, paymentId: released.paymentId, cause });
    expect((await timeline(released.paymentId)).at(-1)).toEqual(["CANCELED", OPERATOR]);
  });

  it("expiry, by the sweep or noticed by a later proceed: FAILED by system", async () => {
    const swept = await createIntent(api, merchant);
    const noticed = await createIntent(api, merchant);
    await advanceClock(api, merchant, 31 * 60 + 1);
    expect((await proceed(api, noticed.paymentId, serverHeaders(merchant))).status).toBe(410);
    await expireOpenPayments(await getDb());
    expect(await timeline(swept.paymentId)).toEqual([
      ["CREATED", "api"],
      ["FAILED", "system"],
    ]);
    expect(await timeline(noticed.paymentId)).toEqual([
      ["CREATED", "api"],
      ["FAILED", "system"],
    ]);
  });

  it("a reservation left alone 7 days: CANCELED by system", async () => {
    const other = await createMerchant();
    const intent = await createIntent(api, other, { captureMethod: "RESERVATION" });
    await payWithOtp(api, other, intent.paymentId);
    await advanceClock(api, other, 7 * 24 * 3600 + 60);
    await releaseStaleReservations(await getDb());
    expect((await timeline(intent.paymentId)).at(-1)).toEqual(["CANCELED", "system"]);
  });

  it("QR: proceed PROCESSING by api, the approval SUCCEEDED by buyer, a decline FAILED by buyer", async () => {
    const approved = await createIntent(api, merchant, { transactionType: "QR_CODE" });
    await proceed(api, approved.paymentId, serverHeaders(merchant));
    await api.post(`/api/v1/sandbox/payments/${approved.paymentId}/qr`, { outcome: "approve" }, clientAuth(merchant));
    expect(await timeline(approved.paymentId)).toEqual([
      ["CREATED", "api"],
      ["PROCESSING", "api"],
      ["SUCCEEDED", "buyer"],
    ]);

    const declined = await createIntent(api, merchant, { transactionType: "QR_CODE" });
    await proceed(api, declined.paymentId, serverHeaders(merchant));
    await api.post(`/api/v1/sandbox/payments/${declined.paymentId}/qr`, { outcome: "decline" }, clientAuth(merchant));
    expect((await timeline(declined.paymentId)).at(-1)).toEqual(["FAILED", "buyer"]);
  });

  it("card: proceed REQUIRES_ACTION by api; card page SUCCEEDED by buyer, card kept with the payment", async () => {
    const proceeded = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.visa });
    await completeOnPage(proceeded, confirmed.paymentIntentId);
    expect(await timeline(proceeded.paymentId)).toEqual([
      ["CREATED", "api"],
      ["REQUIRES_ACTION", "api"],
      ["SUCCEEDED", "buyer"],
    ]);
    // Not saved, yet its brand and last 4 stay with the payment for the console.
    expect(await cardPaymentOf(proceeded.paymentId)).toMatchObject({
      cardBrand: "visa",
      cardLast4: "4242",
      savedCardId: null,
    });
  });

  it("card: a declined card on the card page: FAILED by buyer", async () => {
    const proceeded = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.declined });
    await completeOnPage(proceeded, confirmed.paymentIntentId).catch(() => undefined);
    expect((await timeline(proceeded.paymentId)).at(-1)).toEqual(["FAILED", "buyer"]);
  });

  it("card: the merchant's finalize call: SUCCEEDED by api; a reservation PRE_AUTHORIZED by api", async () => {
    const direct = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, direct, { card: TEST_CARDS.visa });
    const answered = await finalize(api, direct.paymentId, direct.clientSecret, {
      paymentIntentId: confirmed.paymentIntentId,
      externalCardId: confirmed.body.payment_method,
    });
    expect(answered.status).toBe(200);
    expect((await timeline(direct.paymentId)).at(-1)).toEqual(["SUCCEEDED", "api"]);

    const reserved = await proceedWithCard(api, merchant, { intent: { captureMethod: "RESERVATION" } });
    const held = await confirmAtProvider(api, reserved, { card: TEST_CARDS.visa });
    await finalize(api, reserved.paymentId, reserved.clientSecret, {
      paymentIntentId: held.paymentIntentId,
      externalCardId: held.body.payment_method,
    });
    expect((await timeline(reserved.paymentId)).at(-1)).toEqual(["PRE_AUTHORIZED", "api"]);
  });

  it("a payment link's page and checkout page act for the buyer: CREATED and REQUIRES_ACTION by buyer", async () => {
    const db = await getDb();
    const link = await api.post(
      "/api/v1/payment-links",
      { title: "Bag", amount: 15, currency: "DZD", countryCode: "DZA" },
      clientAuth(merchant),
    );
    const started = await startLinkPayment(db, { linkId: link.body.data.id, phone: randomPhone(), amount: undefined });
    if (started.outcome !== "created") throw new Error(`link payment not started: ${JSON.stringify(started)}`);
    await proceedFromCheckout(db, {
      paymentId: started.paymentId,
      token: started.token,
      code: "WALLET_V2",
      locale: "en",
    });
    await submitPaymentOtp(db, { paymentId: started.paymentId, token: started.token, code: "123456" });
    expect(await timeline(started.paymentId)).toEqual([
      ["CREATED", "buyer"],
      ["REQUIRES_ACTION", "buyer"],
      ["SUCCEEDED", "buyer"],
    ]);
  });

  it("card: the provider's event, and reconciliation: SUCCEEDED by system", async () => {
    const db = await getDb();
    const byEvent = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, byEvent, { card: TEST_CARDS.visa });
    expect(await redeliverPendingEvents(db, { olderThanMs: 0, paymentIntentId: confirmed.paymentIntentId })).toBe(1);
    expect((await timeline(byEvent.paymentId)).at(-1)).toEqual(["SUCCEEDED", "system"]);

    const byReconciliation = await proceedWithCard(api, merchant);
    await confirmAtProvider(api, byReconciliation, { card: TEST_CARDS.visa });
    // As the job would an hour later, for this merchant's payments only.
    await reconcileCardPayments(db, { now: new Date(Date.now() + 3600_000), serviceId: principal.service.id });
    expect((await timeline(byReconciliation.paymentId)).at(-1)).toEqual(["SUCCEEDED", "system"]);
  });
});
