import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { answerChallengeForm } from "@/lib/hosted/challenge-form";
import { paymentCaptures, sandboxSettings } from "@/lib/db/schema";
import { cardProviderPaymentIntents, cardProviderPaymentMethods } from "@/simulators/card/card-tables";
import { sandboxCardProvider } from "@/simulators/card/sandbox-card-provider";
import { clientAuth, merchantAuth } from "../support/api";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  cardPaymentOf,
  completeOnPage,
  confirmAfterExpiry,
  confirmAtProvider,
  finalize,
  notificationsOf,
  payWithNewCard,
  proceedWithCard,
  savedCardsOf,
  storedCardData,
  TEST_CARDS,
  TEST_CVC,
} from "../support/cards";
import { capture, check, paymentRow, refund, release, serverHeaders } from "../support/payments";

const { api } = useTestGateway();

async function providerIntent(id: string) {
  const [row] = await (
    await getDb()
  )
    .select()
    .from(cardProviderPaymentIntents)
    .where(eq(cardProviderPaymentIntents.id, id));
  return row!;
}

describe("a DIRECT card payment", () => {
  it("succeeds (2) with a Visa test card and notifies payment.succeeded once", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant, { card: TEST_CARDS.visa });
    expect(paid.confirmed.body).toMatchObject({ status: "succeeded", next_action: null });
    expect(paid.completed).toEqual({ state: "SUCCEEDED", statusCode: 2 });

    const checked = await check(api, paid.paymentId, serverHeaders(merchant));
    expect(checked.body.data).toMatchObject({
      statusCode: 2,
      paymentMethodName: "CARD_PROVIDER",
      amount: 1500,
      currencyCode: "DZD",
    });
    const sent = await notificationsOf(paid.paymentId);
    expect(sent.map((n) => n.type)).toEqual(["payment.succeeded"]);
    expect((sent[0]!.payload as { data: { remoteStatusCode: number } }).data.remoteStatusCode).toBe(2);
    expect(await savedCardsOf((await paymentRow(paid.paymentId)).customerId)).toEqual([]);
  });

  it("answers finalize with status succeeded and the paymentId, no cardId when the card was not saved", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant, { card: TEST_CARDS.mastercard });
    const response = await finalize(api, paid.paymentId, paid.clientSecret, {
      paymentIntentId: paid.paymentIntentId,
      externalCardId: paid.confirmed.body.payment_method,
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      code: 200,
      status: "success",
      data: { status: "succeeded", paymentId: paid.paymentId },
    });
    expect(response.body.data).not.toHaveProperty("cardId");
  });

  it("saves the card the buyer chose to save and answers its cardId", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant, { card: TEST_CARDS.mastercard, save: true });
    const customerId = (await paymentRow(paid.paymentId)).customerId;
    const cards = await savedCardsOf(customerId);
    expect(cards).toHaveLength(1);
    expect(cards[0]).toMatchObject({ brand: "mastercard", last4: "4444", paymentMethodCode: "CARD_PROVIDER" });
    const response = await finalize(api, paid.paymentId, paid.clientSecret, {
      paymentIntentId: paid.paymentIntentId,
      externalCardId: paid.confirmed.body.payment_method,
    });
    expect(response.body.data).toEqual({ status: "succeeded", paymentId: paid.paymentId, cardId: cards[0]!.id });
  });

  it("keeps one saved card when the same card is saved by two payments", async () => {
    const merchant = await createMerchant();
    const first = await payWithNewCard(api, merchant, { card: TEST_CARDS.visa, save: true });
    const second = await payWithNewCard(api, merchant, {
      card: TEST_CARDS.visa,
      save: true,
      intent: { userId: first.userId },
    });
    expect(second.completed.statusCode).toBe(2);
    const cards = await savedCardsOf((await paymentRow(first.paymentId)).customerId);
    expect(cards).toHaveLength(1);
    expect((await cardPaymentOf(second.paymentId))!.savedCardId).toBe(cards[0]!.id);
  });

  it("charges a saved card again without its details", async () => {
    const merchant = await createMerchant();
    const first = await payWithNewCard(api, merchant, { card: TEST_CARDS.visa, save: true });
    const [saved] = await savedCardsOf((await paymentRow(first.paymentId)).customerId);
    const again = await proceedWithCard(api, merchant, {
      intent: { userId: first.userId },
      body: { cardId: saved!.id },
    });
    const confirmed = await confirmAtProvider(api, again, { savedPaymentMethodId: saved!.providerPaymentMethodId });
    expect(confirmed.body.status).toBe("succeeded");
    expect(await completeOnPage(again, confirmed.paymentIntentId)).toEqual({ state: "SUCCEEDED", statusCode: 2 });
    const response = await finalize(api, again.paymentId, again.clientSecret, {
      paymentIntentId: confirmed.paymentIntentId,
      externalCardId: saved!.providerPaymentMethodId,
    });
    expect(response.body.data.cardId).toBe(saved!.id);
    const [after] = await savedCardsOf((await paymentRow(first.paymentId)).customerId);
    expect(after!.lastUsedAt.getTime()).toBeGreaterThan(saved!.lastUsedAt.getTime());
  });

  it("refuses to charge another customer's saved card at the provider", async () => {
    const merchant = await createMerchant();
    const owner = await payWithNewCard(api, merchant, { card: TEST_CARDS.visa, save: true });
    const [saved] = await savedCardsOf((await paymentRow(owner.paymentId)).customerId);
    const stranger = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, stranger, { savedPaymentMethodId: saved!.providerPaymentMethodId });
    expect(confirmed.status).toBe(400);
    expect(confirmed.body.error.code).toBe("resource_missing");
    expect((await paymentRow(stranger.paymentId)).state).toBe("REQUIRES_ACTION");
  });
});

describe("refused cards", () => {
  it("fails the payment (3) when the card is declined, and saves nothing", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant, { card: TEST_CARDS.declined, save: true });
    expect(paid.confirmed.body).toMatchObject({
      status: "requires_payment_method",
      last_payment_error: { code: "card_declined" },
    });
    expect(paid.completed).toEqual({ state: "FAILED", statusCode: 3 });
    const checked = await check(api, paid.paymentId, serverHeaders(merchant));
    expect(checked.body.data).toMatchObject({ statusCode: 3, endUserMessage: "Your card was declined." });
    expect(await savedCardsOf((await paymentRow(paid.paymentId)).customerId)).toEqual([]);
    expect((await notificationsOf(paid.paymentId)).map((n) => n.type)).toEqual(["payment.failed"]);

    const response = await finalize(api, paid.paymentId, paid.clientSecret, {
      paymentIntentId: paid.paymentIntentId,
      externalCardId: paid.confirmed.body.payment_method,
    });
    expect(response.status).toBe(409);
    expect(response.body.error.name).toBe("invalid_state");
    // The provider intent is canceled with the payment: it cannot be confirmed again.
    expect((await providerIntent(paid.paymentIntentId)).status).toBe("canceled");
  });

  it("fails the payment (3) for insufficient funds", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant, { card: TEST_CARDS.insufficientFunds });
    expect(paid.confirmed.body.last_payment_error).toEqual({ code: "insufficient_funds" });
    expect(paid.completed.statusCode).toBe(3);
    expect((await paymentRow(paid.paymentId)).failureReason).toBe("card_insufficient_funds");
  });

  it("refuses a number that fails the Luhn check without creating a card, and accepts a good one after", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const refused = await confirmAtProvider(api, proceeded, { card: "4242 4242 4242 4241" });
    expect(refused.status).toBe(402);
    expect(refused.body.error).toMatchObject({ type: "card_error", code: "incorrect_number" });
    expect(JSON.stringify(refused.body)).not.toContain("4241");
    const methods = await (
      await getDb()
    )
      .select()
      .from(cardProviderPaymentMethods)
      .where(eq(cardProviderPaymentMethods.accountKey, merchant.cardProviderPublishableKey));
    expect(methods).toEqual([]);
    const accepted = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.visa });
    expect(accepted.body.status).toBe("succeeded");
  });

  it.each([
    ["an expired card", { card: TEST_CARDS.visa, expMonth: 1, expYear: 2020 }, "invalid_expiry"],
    ["a CVC that is not 3 digits", { card: TEST_CARDS.visa, cvc: "12" }, "incorrect_cvc"],
    ["a brand other than Visa and Mastercard", { card: "3782 822463 10005" }, "card_not_supported"],
  ])("refuses %s at the provider", async (_name, method, code) => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const refused = await confirmAtProvider(api, proceeded, method);
    expect(refused.status).toBe(402);
    expect(refused.body.error.code).toBe(code);
  });
});

describe("the 3DS test card", () => {
  it("asks for the challenge page, and Complete goes on as a card without one (2)", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.threeDSecure, save: true });
    expect(confirmed.body.status).toBe("requires_action");
    const challengeUrl = new URL(confirmed.body.next_action.redirect_to_url.url);
    expect(challengeUrl.pathname).toBe(`/en/card-provider-sandbox/challenge/${confirmed.paymentIntentId}`);
    // Not settled before the challenge.
    expect((await completeOnPage(proceeded, confirmed.paymentIntentId)).statusCode).toBe(12);

    const db = await getDb();
    const { returnUrl } = await sandboxCardProvider.completeChallenge(db, {
      intentId: confirmed.paymentIntentId,
      clientSecret: challengeUrl.searchParams.get("client_secret")!,
      outcome: "complete",
    });
    expect(new URL(returnUrl).pathname).toBe(`/en/pay/card/${proceeded.paymentId}/complete`);
    expect(new URL(returnUrl).searchParams.get("payment_intent")).toBe(confirmed.paymentIntentId);
    expect(await completeOnPage(proceeded, confirmed.paymentIntentId)).toEqual({ state: "SUCCEEDED", statusCode: 2 });
    expect(await savedCardsOf((await paymentRow(proceeded.paymentId)).customerId)).toHaveLength(1);
  });

  it("fails the payment (3) when the buyer presses Fail", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.threeDSecure });
    const clientSecret = new URL(confirmed.body.next_action.redirect_to_url.url).searchParams.get("client_secret")!;
    await sandboxCardProvider.completeChallenge(await getDb(), {
      intentId: confirmed.paymentIntentId,
      clientSecret,
      outcome: "fail",
    });
    expect(await completeOnPage(proceeded, confirmed.paymentIntentId)).toEqual({ state: "FAILED", statusCode: 3 });
    expect((await paymentRow(proceeded.paymentId)).failureReason).toBe("card_authentication_failed");
  });

  it("refuses the challenge answer without the intent's client secret", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.threeDSecure });
    await expect(
      sandboxCardProvider.completeChallenge(await getDb(), {
        intentId: confirmed.paymentIntentId,
        clientSecret: "nope",
        outcome: "complete",
      }),
    ).rejects.toMatchObject({
      code: "authentication_failed",
    });
    // The page's form, through the simulator mount: the buyer is sent back to the refused page, nothing settled.
    const back = await answerChallengeForm({
      db: await getDb(),
      locale: "en",
      intentId: confirmed.paymentIntentId,
      fields: { clientSecret: "nope", outcome: "complete" },
    });
    expect(new URL(back, "https://pay.example").pathname).toBe(
      `/en/card-provider-sandbox/challenge/${confirmed.paymentIntentId}`,
    );
    expect(new URL(back, "https://pay.example").searchParams.get("notice")).toBe("refused");
    expect((await paymentRow(proceeded.paymentId)).state).not.toBe("SUCCEEDED");
  });
});

describe("a RESERVATION card payment", () => {
  it("is pre-authorized (13), then captured in part (2) with the rest released at the provider", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant, { intent: { captureMethod: "RESERVATION", amount: 200 } });
    expect(paid.completed).toEqual({ state: "PRE_AUTHORIZED", statusCode: 13 });
    expect((await notificationsOf(paid.paymentId)).map((n) => n.type)).toEqual(["payment.pre_authorized"]);
    expect(await providerIntent(paid.paymentIntentId)).toMatchObject({
      status: "requires_capture",
      amountCapturableMinor: 20_000,
    });

    const captured = await capture(api, merchant, paid.paymentId, { amount: 150 });
    expect(captured.status).toBe(200);
    expect(captured.body.data).toMatchObject({ statusCode: 2 });
    expect(await providerIntent(paid.paymentIntentId)).toMatchObject({
      status: "succeeded",
      amountReceivedMinor: 15_000,
      amountCapturableMinor: 0,
    });
    const checked = await check(api, paid.paymentId, serverHeaders(merchant));
    expect(checked.body.data).toMatchObject({ statusCode: 2, amount: 150 });

    const refunded = await refund(api, merchant, paid.paymentId, { description: "returned", amount: 50 });
    expect(refunded.body.data).toMatchObject({ statusCode: 4, refundedAmount: 50, remainingRefundableAmount: 100 });
    expect((await providerIntent(paid.paymentIntentId)).amountRefundedMinor).toBe(5_000);
    const over = await refund(api, merchant, paid.paymentId, { description: "too much", amount: 101 });
    expect(over.status).toBe(400);
    expect(over.body.error.name).toBe("amount_exceeds_refundable");
    const rest = await refund(api, merchant, paid.paymentId, { description: "rest" });
    expect(rest.body.data).toMatchObject({ remainingRefundableAmount: 0 });
    expect((await check(api, paid.paymentId, serverHeaders(merchant))).body.data.statusCode).toBe(4);
    expect((await providerIntent(paid.paymentIntentId)).amountRefundedMinor).toBe(15_000);
  });

  it("is released (10) and the provider authorization canceled", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant, { intent: { captureMethod: "RESERVATION" } });
    const released = await release(api, merchant, paid.paymentId);
    expect(released.body.data).toMatchObject({ statusCode: 10, status: "Reversed" });
    expect((await providerIntent(paid.paymentIntentId)).status).toBe("canceled");
    const again = await capture(api, merchant, paid.paymentId);
    expect(again.status).toBe(409);
  });

  it("answers finalize with succeeded while pre-authorized, and a DIRECT card payment refuses capture", async () => {
    const merchant = await createMerchant();
    const reserved = await payWithNewCard(api, merchant, { intent: { captureMethod: "RESERVATION" } });
    const response = await finalize(api, reserved.paymentId, reserved.clientSecret, {
      paymentIntentId: reserved.paymentIntentId,
      externalCardId: reserved.confirmed.body.payment_method,
    });
    expect(response.body.data).toEqual({ status: "succeeded", paymentId: reserved.paymentId });
    const direct = await payWithNewCard(api, merchant);
    expect((await capture(api, merchant, direct.paymentId)).body.error.name).toBe("invalid_state");
  });

  it("refunds a DIRECT card payment in full (4) at the provider", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant, { intent: { amount: 0.3 } });
    const first = await refund(api, merchant, paid.paymentId, { description: "a", amount: 0.1 });
    const second = await refund(api, merchant, paid.paymentId, { description: "b", amount: 0.2 });
    expect(first.body.data.statusCode).toBe(4);
    expect(second.body.data).toMatchObject({ totalRefundedAmount: 0.3, remainingRefundableAmount: 0 });
    expect((await paymentRow(paid.paymentId)).state).toBe("REFUNDED");
    expect((await providerIntent(paid.paymentIntentId)).amountRefundedMinor).toBe(30);
  });
});

describe("card finalize", () => {
  it("accepts only the x-client-secret credential of the path's payment", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant);
    const other = await proceedWithCard(api, merchant);
    const body = { paymentIntentId: paid.paymentIntentId, externalCardId: paid.confirmed.body.payment_method };
    const path = `/api/v1/payments/intents/${paid.paymentId}/card-provider-finalize`;
    const refusals = await Promise.all([
      api.post(path, body, merchantAuth(merchant, paid.clientSecret)),
      api.post(path, body, clientAuth(merchant)),
      api.post(path, body, { "x-client-secret": other.clientSecret }),
      api.post(path, body, { "x-client-secret": `${paid.clientSecret.slice(0, -4)}0000` }),
      api.post(path, body),
    ]);
    for (const refused of refusals) {
      expect(refused.status).toBe(401);
      expect(refused.body.error.name).toBe("invalid_credentials");
    }
  });

  it("lists every missing field as a validation_error", async () => {
    const merchant = await createMerchant();
    const paid = await proceedWithCard(api, merchant);
    const response = await finalize(api, paid.paymentId, paid.clientSecret, {});
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((d: { path: string }) => d.path).sort()).toEqual([
      "externalCardId",
      "paymentIntentId",
    ]);
  });

  it("answers 404 for another payment's provider intent and 409 for a card the provider did not confirm", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant);
    const other = await payWithNewCard(api, merchant);
    const foreign = await finalize(api, paid.paymentId, paid.clientSecret, {
      paymentIntentId: other.paymentIntentId,
      externalCardId: other.confirmed.body.payment_method,
    });
    expect(foreign.status).toBe(404);
    const wrongCard = await finalize(api, paid.paymentId, paid.clientSecret, {
      paymentIntentId: paid.paymentIntentId,
      externalCardId: other.confirmed.body.payment_method,
    });
    expect(wrongCard.status).toBe(409);
  });

  it("refuses to finalize before the card was confirmed with the provider", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const intentId = (await cardPaymentOf(proceeded.paymentId))!.providerIntentId;
    const response = await finalize(api, proceeded.paymentId, proceeded.clientSecret, {
      paymentIntentId: intentId,
      externalCardId: "pm_none",
    });
    expect(response.status).toBe(409);
    expect((await paymentRow(proceeded.paymentId)).state).toBe("REQUIRES_ACTION");
  });

  it("replays the first answer for a repeated Idempotency-Key", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant);
    const body = { paymentIntentId: paid.paymentIntentId, externalCardId: paid.confirmed.body.payment_method };
    const first = await finalize(api, paid.paymentId, paid.clientSecret, body, { "idempotency-key": "fin-1" });
    const second = await finalize(api, paid.paymentId, paid.clientSecret, body, { "idempotency-key": "fin-1" });
    expect(second.status).toBe(200);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body.data).toEqual(first.body.data);
    const conflict = await finalize(
      api,
      paid.paymentId,
      paid.clientSecret,
      { ...body, externalCardId: "pm_other" },
      { "idempotency-key": "fin-1" },
    );
    expect(conflict.status).toBe(422);
  });

  it("keeps no Idempotency-Key 409 during 3DS: the same key finalizes once the challenge is passed", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.threeDSecure });
    const body = { paymentIntentId: confirmed.paymentIntentId, externalCardId: confirmed.body.payment_method };
    const key = { "idempotency-key": `fin-3ds-${proceeded.paymentId}` };
    const early = await finalize(api, proceeded.paymentId, proceeded.clientSecret, body, key);
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({
      message: "The card payment still awaits the buyer's 3DS verification.",
      error: { name: "invalid_state" },
    });

    const clientSecret = new URL(confirmed.body.next_action.redirect_to_url.url).searchParams.get("client_secret")!;
    await sandboxCardProvider.completeChallenge(await getDb(), {
      intentId: confirmed.paymentIntentId,
      clientSecret,
      outcome: "complete",
    });
    const done = await finalize(api, proceeded.paymentId, proceeded.clientSecret, body, key);
    expect(done.status).toBe(200);
    expect(done.headers.get("idempotent-replayed")).toBeNull();
    expect(done.body.data).toMatchObject({ status: "succeeded", paymentId: proceeded.paymentId });
    const replay = await finalize(api, proceeded.paymentId, proceeded.clientSecret, body, key);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body.data).toEqual(done.body.data);
    expect((await paymentRow(proceeded.paymentId)).state).toBe("SUCCEEDED");
  });

  it("reverses the provider charge of an intent that expired before the buyer confirmed", async () => {
    const merchant = await createMerchant();
    // The provider knows nothing of the gateway's clock: it takes the money.
    const { proceeded, intentId, confirmed } = await confirmAfterExpiry(api, merchant, { save: true });
    expect(confirmed.status).toBe("succeeded");
    expect(await completeOnPage(proceeded, intentId)).toEqual({ state: "FAILED", statusCode: 3 });
    const row = await paymentRow(proceeded.paymentId);
    expect(row.failureReason).toBe("expired");
    expect(await providerIntent(intentId)).toMatchObject({
      amountReceivedMinor: row.amountMinor,
      amountRefundedMinor: row.amountMinor,
    });
    expect(await (await getDb()).select().from(paymentCaptures).where(eq(paymentCaptures.paymentId, row.id))).toEqual(
      [],
    );
    expect(await savedCardsOf(row.customerId)).toEqual([]);
  });
});

describe("card data", () => {
  it("is found by the scan when planted, so the scan below can be trusted", async () => {
    const db = await getDb();
    const planted = await db
      .transaction(async (tx) => {
        await tx.insert(sandboxSettings).values([
          { key: "probe-number", value: TEST_CARDS.threeDSecure },
          { key: "probe-cvc", value: TEST_CVC },
        ]);
        const found = await storedCardData(tx);
        throw Object.assign(new Error("rollback"), { found });
      })
      .catch((error: { found?: unknown }) => error.found);
    expect(planted).toEqual([
      { table: "sandbox_settings", finding: "card number ending 3220" },
      { table: "sandbox_settings", finding: "a value equal to the CVC" },
    ]);
  });

  it("stores no full card number or CVC in any table after the suite", async () => {
    expect(await storedCardData()).toEqual([]);
  });
});
