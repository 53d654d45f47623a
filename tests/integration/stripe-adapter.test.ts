import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { deleteSavedCard } from "@/lib/cards/delete-saved-card";
import { getDb } from "@/lib/db/client";
import { paymentCaptures, providerOperations } from "@/lib/db/schema";
import {
  cardProviderPaymentIntents,
  cardProviderPaymentMethods,
  cardProviderRefunds,
} from "@/simulators/card/card-tables";
import { sandboxAccountOf, sandboxCardAccount } from "@/lib/providers/card/card-provider-accounts";
import { installCardProvider } from "@/lib/providers/card-provider";
import { sandboxCardProvider } from "@/simulators/card/sandbox-card-provider";
import { startStripeSimulator, type StripeSimulator } from "@/simulators/card/stripe-simulator";
import { stripeCardProvider, stripeEndpointOf } from "@/lib/providers/card/stripe-card-provider";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import { notificationsOf, payWithNewCard, providerEvents, savedCardsOf, TEST_CARDS } from "../support/cards";
import { capture, paymentRow, reconcileOperationsLater, refund, release, serviceIdOf } from "../support/payments";

/*
 * Every card call of the gateway goes through the unmodified `stripe` SDK to the simulator of
 * Stripe's wire protocol (the sandbox's books behind it), as the production adapter would go
 * to api.stripe.com. Faults are injected at the simulator, i.e. at the provider.
 */
const { api } = useTestGateway();
let simulator: StripeSimulator;

beforeAll(async () => {
  simulator = await startStripeSimulator({ db: getDb });
  installCardProvider(
    stripeCardProvider({
      endpoint: stripeEndpointOf(simulator.url),
      timeoutMs: 1_500,
      accountOf: (db, account) => sandboxCardAccount(db, account.serviceId),
      browserConfirmation: sandboxCardProvider.browserConfirmation,
    }),
  );
});
afterAll(async () => {
  installCardProvider(null);
  await simulator.close();
});

const calls = (pattern: RegExp) => simulator.requests.filter((line) => pattern.test(line)).length;

async function intentAtProvider(id: string) {
  const [row] = await (
    await getDb()
  )
    .select()
    .from(cardProviderPaymentIntents)
    .where(eq(cardProviderPaymentIntents.id, id));
  return row!;
}

async function reserved() {
  const merchant = await createMerchant();
  const paid = await payWithNewCard(api, merchant, { intent: { captureMethod: "RESERVATION" } });
  return { merchant, ...paid };
}

describe("the Stripe adapter against the simulator", () => {
  it("takes a DIRECT card payment, saves the card on a Stripe customer and refunds part of it", async () => {
    const merchant = await createMerchant();
    const before = calls(/^POST \/v1\/payment_intents$/);
    const paid = await payWithNewCard(api, merchant, { save: true });
    expect(paid.completed).toEqual({ state: "SUCCEEDED", statusCode: 2 });
    expect(calls(/^POST \/v1\/payment_intents$/)).toBe(before + 1);
    const intent = await intentAtProvider(paid.paymentIntentId);
    expect(intent.customerRef).toMatch(/^cus_/);
    const cards = await savedCardsOf((await paymentRow(paid.paymentId)).customerId);
    expect(cards.map((card) => [card.brand, card.last4])).toEqual([["visa", "4242"]]);

    const refunded = await refund(api, merchant, paid.paymentId, { description: "one item back", amount: 400 });
    expect(refunded.status).toBe(200);
    expect((await paymentRow(paid.paymentId)).state).toBe("PARTIALLY_REFUNDED");
    const refunds = await (
      await getDb()
    )
      .select()
      .from(cardProviderRefunds)
      .where(eq(cardProviderRefunds.paymentIntentId, paid.paymentIntentId));
    expect(refunds.map((row) => row.amountMinor)).toEqual([40_000]);
  });

  it("captures part of a reservation with amount_to_capture, and releases another with cancel", async () => {
    const first = await reserved();
    const captured = await capture(api, first.merchant, first.paymentId, { amount: 600 });
    expect(captured.status).toBe(200);
    expect((await intentAtProvider(first.paymentIntentId)).amountReceivedMinor).toBe(60_000);
    const [row] = await (
      await getDb()
    )
      .select()
      .from(paymentCaptures)
      .where(eq(paymentCaptures.paymentId, first.paymentId));
    expect(row).toMatchObject({ amountMinor: 60_000, releasedMinor: 90_000 });

    const second = await reserved();
    expect((await release(api, second.merchant, second.paymentId)).body.data.statusCode).toBe(10);
    expect((await intentAtProvider(second.paymentIntentId)).status).toBe("canceled");
  });

  it("detaches a deleted saved card at the provider", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant, { save: true });
    const [card] = await savedCardsOf((await paymentRow(paid.paymentId)).customerId);
    // The delete as the API runs it for the card's owner: through a provider operation.
    const serviceId = await serviceIdOf(merchant);
    const principal = {
      mode: "user",
      service: { id: serviceId, countries: ["DZA"], clockOffsetSeconds: 0 },
      customerId: card!.customerId,
    } as never;
    await deleteSavedCard(await getDb(), { principal, cardId: card!.id });
    const [method] = await (
      await getDb()
    )
      .select()
      .from(cardProviderPaymentMethods)
      .where(eq(cardProviderPaymentMethods.id, card!.providerPaymentMethodId));
    expect(method!.detachedAt).not.toBeNull();
    expect(calls(/^POST \/v1\/payment_methods\/pm_\w+\/detach$/)).toBeGreaterThan(0);
  });
});

describe("faults at the provider", () => {
  it("a capture that timed out after Stripe applied it is captured once after reconciliation", async () => {
    const { merchant, paymentId, paymentIntentId } = await reserved();
    simulator.inject(/^POST \/v1\/payment_intents\/\w+\/capture$/, "timeout_after");
    const failed = await capture(api, merchant, paymentId);
    expect(failed.status).toBe(503);
    expect(failed.body.error.name).toBe("provider_unavailable");
    expect((await intentAtProvider(paymentIntentId)).status).toBe("succeeded"); // Applied at the provider.
    expect((await paymentRow(paymentId)).state).toBe("PRE_AUTHORIZED"); // Not yet in the books.
    expect(await reconcileOperationsLater(paymentId)).toBe(1);
    expect((await paymentRow(paymentId)).state).toBe("SUCCEEDED");
    expect((await intentAtProvider(paymentIntentId)).amountReceivedMinor).toBe(150_000);
    expect((await notificationsOf(paymentId)).map((n) => n.type)).toEqual([
      "payment.pre_authorized",
      "payment.captured",
    ]);
  });

  it("a capture that timed out before Stripe applied it is applied once by reconciliation", async () => {
    const { merchant, paymentId, paymentIntentId } = await reserved();
    simulator.inject(/^POST \/v1\/payment_intents\/\w+\/capture$/, "timeout_before");
    expect((await capture(api, merchant, paymentId)).status).toBe(503);
    expect((await intentAtProvider(paymentIntentId)).status).toBe("requires_capture");
    expect(await reconcileOperationsLater(paymentId)).toBe(1);
    expect((await paymentRow(paymentId)).capturedMinor).toBe(150_000);
    expect((await intentAtProvider(paymentIntentId)).amountReceivedMinor).toBe(150_000);
  });

  it("a refund hit by connection resets after applying: SDK's retry, then ours, same key: refund once", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant);
    const refundsAtProvider = async () =>
      (
        await (
          await getDb()
        )
          .select()
          .from(cardProviderRefunds)
          .where(eq(cardProviderRefunds.paymentIntentId, paid.paymentIntentId))
      ).map((row) => row.amountMinor);

    // One reset: the SDK retries a closed connection once with the same key; Stripe replays the refund.
    simulator.inject(/^POST \/v1\/refunds$/, "reset_after");
    expect((await refund(api, merchant, paid.paymentId, { description: "a", amount: 300 })).status).toBe(200);
    expect(await refundsAtProvider()).toEqual([30_000]);

    // Two resets: the SDK gives up, the gateway answers 503, the merchant's retry gets the one refund.
    simulator.inject(/^POST \/v1\/refunds$/, "reset_after");
    simulator.inject(/^POST \/v1\/refunds$/, "reset_after");
    const headers = { "idempotency-key": `refund-${paid.paymentId}` };
    expect((await refund(api, merchant, paid.paymentId, { description: "b", amount: 200 }, headers)).status).toBe(503);
    const retried = await refund(api, merchant, paid.paymentId, { description: "b", amount: 200 }, headers);
    expect(retried.status).toBe(200);
    expect(retried.body.data.totalRefundedAmount).toBe(500);
    expect(await refundsAtProvider()).toEqual([30_000, 20_000]);
    expect((await paymentRow(paid.paymentId)).refundedMinor).toBe(50_000);
    expect((await notificationsOf(paid.paymentId)).map((n) => n.type)).toEqual([
      "payment.succeeded",
      "payment.refunded",
      "payment.refunded",
    ]);
  });

  it("a 5xx on release leaves it unknown, then reconciliation cancels once", async () => {
    const { merchant, paymentId, paymentIntentId } = await reserved();
    simulator.inject(/^POST \/v1\/payment_intents\/\w+\/cancel$/, "error_500");
    expect((await release(api, merchant, paymentId)).status).toBe(503);
    const [operation] = await (
      await getDb()
    )
      .select()
      .from(providerOperations)
      .where(eq(providerOperations.paymentId, paymentId));
    expect(operation!.status).toBe("unknown");
    expect(await reconcileOperationsLater(paymentId)).toBe(1);
    expect((await paymentRow(paymentId)).state).toBe("CANCELED");
    expect((await intentAtProvider(paymentIntentId)).status).toBe("canceled");
  });
});

describe("inbound events verified with the SDK", () => {
  it("accepts events signed with the account's webhook secret, duplicates included; refuses forged ones", async () => {
    const merchant = await createMerchant();
    const paid = await payWithNewCard(api, merchant);
    const [event] = await providerEvents(paid.paymentIntentId);
    const rawBody = JSON.stringify(event!.payload);
    const account = sandboxAccountOf(await getGatewayKey(await getDb()), merchant.cardProviderPublishableKey);
    const signer = new Stripe("sk_test_signing_only");
    const post = (signature: string) =>
      api.call("POST", "/api/v1/webhooks/card-provider", {
        rawBody,
        headers: { "content-type": "application/json", "stripe-signature": signature },
      });
    for (let copy = 0; copy < 2; copy += 1) {
      expect(
        (await post(signer.webhooks.generateTestHeaderString({ payload: rawBody, secret: account.webhookSecret })))
          .status,
      ).toBe(200);
    }
    expect(
      (await post(signer.webhooks.generateTestHeaderString({ payload: rawBody, secret: "whsec_forged" }))).status,
    ).toBe(401);
    expect((await notificationsOf(paid.paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
  });
});
