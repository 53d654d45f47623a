import { describe, expect, it } from "vitest";
import { cardPageMode, type CardPageFacts } from "@/lib/hosted/views/card-page-view";
import { PAYMENT_STATES } from "@/lib/payments/core/payment-state";
import { cardPagePath, cardCompletePath } from "@/lib/urls/hosted-urls";

const awaiting: CardPageFacts = {
  state: "REQUIRES_ACTION",
  expired: false,
  paymentMethodCode: "CARD_PROVIDER",
  hasConfirmation: true,
  nextActionUrl: null,
  answeredProviderIntentId: null,
};

describe("cardPageMode", () => {
  it("asks for the card while the payment and its provider intent await it", () => {
    expect(cardPageMode(awaiting)).toBe("enter_card");
  });

  it("sends the buyer back to a pending 3DS challenge instead of asking again", () => {
    expect(
      cardPageMode({ ...awaiting, nextActionUrl: "https://gw.example/en/card-provider-sandbox/challenge/pi_1" }),
    ).toBe("verify");
  });

  it("settles a payment the provider already answered, even past its lifetime (the settlement reverses it)", () => {
    expect(cardPageMode({ ...awaiting, answeredProviderIntentId: "pi_1" })).toBe("complete");
    expect(cardPageMode({ ...awaiting, answeredProviderIntentId: "pi_1", expired: true })).toBe("complete");
  });

  it("tells an expired payment so, and shows no card page for a wallet payment or one not proceeded", () => {
    expect(cardPageMode({ ...awaiting, expired: true })).toBe("expired");
    expect(cardPageMode({ ...awaiting, paymentMethodCode: "WALLET_V2" })).toBe("unavailable");
    expect(cardPageMode({ ...awaiting, state: "CREATED" })).toBe("unavailable");
    expect(cardPageMode({ ...awaiting, hasConfirmation: false })).toBe("unavailable");
  });

  it("moves every settled state on to the return page", () => {
    const settled = PAYMENT_STATES.filter((state) => !["CREATED", "PROCESSING", "REQUIRES_ACTION"].includes(state));
    for (const state of settled) expect(cardPageMode({ ...awaiting, state })).toBe("finished");
  });
});

describe("card page links", () => {
  it("carry the locale, the payment and its token", () => {
    const link = { locale: "ar" as const, paymentId: "5f1c0f5e-0000-4000-8000-000000000000", token: "ab12" };
    expect(cardPagePath(link)).toBe("/ar/pay/card/5f1c0f5e-0000-4000-8000-000000000000?token=ab12");
    expect(cardCompletePath(link)).toBe("/ar/pay/card/5f1c0f5e-0000-4000-8000-000000000000/complete?token=ab12");
  });
});
