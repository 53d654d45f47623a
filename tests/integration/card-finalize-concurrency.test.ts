import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { paymentCaptures } from "@/lib/db/schema";

import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  completeOnPage,
  confirmAtProvider,
  eventually,
  finalize,
  notificationsOf,
  postSignedEvent,
  proceedWithCard,
  providerEvents,
  savedCardsOf,
  storedCardData,
  TEST_CARDS,
} from "../support/cards";
import { capture, paymentRow } from "../support/payments";

const { api } = useTestGateway();

async function capturesOf(paymentId: string) {
  return (await getDb()).select().from(paymentCaptures).where(eq(paymentCaptures.paymentId, paymentId));
}

/** 10 finalizes, 10 copies of the provider's signed event and 2 page completions, all at once. */
async function storm(
  paid: { paymentId: string; clientSecret: string; token: string },
  paymentIntentId: string,
  externalCardId: string,
) {
  const [event] = await eventually(
    () => providerEvents(paymentIntentId),
    (events) => events.length > 0,
  );
  const finalizes = Array.from({ length: 10 }, () =>
    finalize(api, paid.paymentId, paid.clientSecret, { paymentIntentId, externalCardId }),
  );
  const events = Array.from({ length: 10 }, () => postSignedEvent(api, event!.payload));
  const pages = Array.from({ length: 2 }, () => completeOnPage(paid, paymentIntentId));
  const [finalized, delivered, completed] = await Promise.all([
    Promise.all(finalizes),
    Promise.all(events),
    Promise.all(pages),
  ]);
  return { finalized, delivered, completed };
}

describe("finalize and the provider's notification together", () => {
  it("settle one succeeded payment and one saved card, however many arrive in parallel", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.visa, save: true });
    const { finalized, delivered, completed } = await storm(
      proceeded,
      confirmed.paymentIntentId,
      confirmed.body.payment_method,
    );

    const customerId = (await paymentRow(proceeded.paymentId)).customerId;
    const cards = await savedCardsOf(customerId);
    expect(cards).toHaveLength(1);
    for (const response of finalized) {
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ status: "succeeded", paymentId: proceeded.paymentId, cardId: cards[0]!.id });
    }
    for (const response of delivered) expect(response.status).toBe(200);
    for (const result of completed) expect(result).toEqual({ state: "SUCCEEDED", statusCode: 2 });
    expect(await capturesOf(proceeded.paymentId)).toHaveLength(1);
    expect((await notificationsOf(proceeded.paymentId)).map((n) => n.type)).toEqual(["payment.succeeded"]);
    expect((await paymentRow(proceeded.paymentId)).capturedMinor).toBe(150_000);
  });

  it("settle one pre-authorized reservation that is then captured once", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant, { intent: { captureMethod: "RESERVATION" } });
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.mastercard, save: true });
    const { finalized } = await storm(proceeded, confirmed.paymentIntentId, confirmed.body.payment_method);
    for (const response of finalized) expect(response.status).toBe(200);
    expect((await notificationsOf(proceeded.paymentId)).map((n) => n.type)).toEqual(["payment.pre_authorized"]);
    expect(await savedCardsOf((await paymentRow(proceeded.paymentId)).customerId)).toHaveLength(1);

    const captures = await Promise.all(Array.from({ length: 5 }, () => capture(api, merchant, proceeded.paymentId)));
    expect(captures.filter((response) => response.status === 200)).toHaveLength(1);
    expect((await notificationsOf(proceeded.paymentId)).map((n) => n.type).sort()).toEqual([
      "payment.captured",
      "payment.pre_authorized",
    ]);
  });

  it("keep one saved card when two payments of one customer save the same card at once", async () => {
    const merchant = await createMerchant();
    const first = await proceedWithCard(api, merchant);
    const second = await proceedWithCard(api, merchant, { intent: { userId: first.userId } });
    const confirmed = await Promise.all([
      confirmAtProvider(api, first, { card: TEST_CARDS.visa, save: true }),
      confirmAtProvider(api, second, { card: TEST_CARDS.visa, save: true }),
    ]);
    await Promise.all([
      completeOnPage(first, confirmed[0].paymentIntentId),
      completeOnPage(second, confirmed[1].paymentIntentId),
    ]);
    expect(await savedCardsOf((await paymentRow(first.paymentId)).customerId)).toHaveLength(1);
  });
});

describe("POST /api/v1/webhooks/card-provider", () => {
  it("completes the payment from the provider's own notification, without the page or finalize", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    await confirmAtProvider(api, proceeded, { card: TEST_CARDS.visa, save: true });
    const settled = await eventually(
      () => paymentRow(proceeded.paymentId),
      (row) => row.state === "SUCCEEDED",
    );
    expect(settled.state).toBe("SUCCEEDED");
    expect(await savedCardsOf(settled.customerId)).toHaveLength(1);
  });

  it("fails a declined payment from the provider's notification", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    await confirmAtProvider(api, proceeded, { card: TEST_CARDS.declined });
    const settled = await eventually(
      () => paymentRow(proceeded.paymentId),
      (row) => row.state === "FAILED",
    );
    expect(settled).toMatchObject({ state: "FAILED", failureReason: "card_declined" });
  });

  it("refuses an event whose signature is missing, wrong, stale or for another body", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.visa });
    const [event] = await eventually(
      () => providerEvents(confirmed.paymentIntentId),
      (events) => events.length > 0,
    );
    const payload = event!.payload as { data: { object: Record<string, unknown> } };
    const tampered = { ...payload, data: { object: { ...payload.data.object, amount: 1 } } };
    const refused = await Promise.all([
      api.call("POST", "/api/v1/webhooks/card-provider", {
        rawBody: JSON.stringify(payload),
        headers: { "content-type": "application/json" },
      }),
      postSignedEvent(api, payload, { signature: `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` }),
      postSignedEvent(api, payload, { now: new Date(Date.now() - 10 * 60 * 1000) }),
      postSignedEvent(api, tampered, { signature: await signatureFor(payload) }),
    ]);
    for (const response of refused) {
      expect(response.status).toBe(401);
      expect(response.body.error.name).toBe("invalid_credentials");
    }
  });

  it("acknowledges a genuine event about no payment of this gateway", async () => {
    const response = await postSignedEvent(api, {
      id: "evt_unknown",
      type: "payment_intent.succeeded",
      data: {
        object: {
          id: "pi_unknown",
          payment_method: "pm_unknown",
          metadata: { paymentId: "5f1c0f5e-0000-4000-8000-000000000000" },
        },
      },
    });
    expect(response.status).toBe(200);
    expect(response.body.data).toEqual({ eventId: "evt_unknown", handled: false });
  });
});

async function signatureFor(payload: unknown): Promise<string> {
  const { signEvent } = await import("@/simulators/card/sandbox-secrets");
  const { getGatewayKey } = await import("@/lib/crypto/gateway-key");
  return signEvent(await getGatewayKey(await getDb()), JSON.stringify(payload), new Date());
}

describe("card data", () => {
  it("stores no full card number or CVC in any table after the suite", async () => {
    expect(await storedCardData()).toEqual([]);
  });
});
