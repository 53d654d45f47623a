import { describe, expect, it } from "vitest";
import { CARD_FORM_ISLAND_TEXT_KEYS, type CardFormIslandText } from "@/components/islands/card/card-form-config";
import { confirmOutcome, fieldErrors, numberHint } from "@/components/islands/card/card-form-rules";
import type { StripeElementChange } from "@/components/islands/card/stripe-js";

// Each message is its own key, so a test reads which rule spoke.
const text = Object.fromEntries(
  [...CARD_FORM_ISLAND_TEXT_KEYS, "brandDetectedVisa", "brandDetectedMastercard"].map((key) => [key, key]),
) as CardFormIslandText;
const complete: StripeElementChange = { empty: false, complete: true };
const intent = (status: string, nextAction: { type: string; redirect_to_url?: { url: string } } | null = null) => ({
  id: "pi_1",
  status,
  next_action: nextAction,
});

describe("the card form's checks before anything leaves the browser", () => {
  it("asks for every empty field, and for a card the elements have not reported yet", () => {
    expect(fieldErrors({}, text)).toEqual({ number: "numberRequired", expiry: "expiryRequired", cvc: "cvcRequired" });
    expect(fieldErrors({ number: { empty: true, complete: false }, expiry: complete, cvc: complete }, text)).toEqual({
      number: "numberRequired",
    });
  });

  it("names a wrong number, an unsupported brand, an incomplete number", () => {
    const with_ = (number: StripeElementChange) =>
      fieldErrors({ number, expiry: complete, cvc: complete }, text).number;
    expect(
      with_({
        empty: false,
        complete: false,
        brand: "visa",
        error: { type: "validation_error", code: "invalid_number", message: "" },
      }),
    ).toBe("numberLuhn");
    expect(with_({ empty: false, complete: true, brand: "amex" })).toBe("numberUnsupported");
    expect(with_({ empty: false, complete: false, brand: "unknown" })).toBe("numberIncomplete");
    expect(with_({ empty: false, complete: true, brand: "mastercard" })).toBeUndefined();
  });

  it("tells a past expiry from a malformed one, and an incomplete CVC", () => {
    const past = {
      empty: false,
      complete: false,
      error: { type: "validation_error", code: "invalid_expiry_year_past", message: "" },
    };
    expect(fieldErrors({ number: complete, expiry: past, cvc: complete }, text)).toEqual({ expiry: "expiryPast" });
    expect(
      fieldErrors(
        { number: complete, expiry: { empty: false, complete: false }, cvc: { empty: false, complete: false } },
        text,
      ),
    ).toEqual({
      expiry: "expiryFormat",
      cvc: "cvcFormat",
    });
  });

  it("shows the detected brand only for the brands the page accepts", () => {
    expect(numberHint("visa", text)).toBe("brandDetectedVisa");
    expect(numberHint("mastercard", text)).toBe("brandDetectedMastercard");
    expect(numberHint(null, text)).toBe("numberHint");
  });
});

describe("what the page does with the provider's answer", () => {
  it("moves on to the gateway with a settled or refused intent: a decline is an answer too", () => {
    expect(confirmOutcome({ paymentIntent: intent("succeeded") }, false, text)).toEqual({
      kind: "leave",
      redirect: null,
      paymentIntentId: "pi_1",
      handleNextAction: false,
    });
    const declined = {
      error: { type: "card_error", code: "card_declined", payment_intent: intent("requires_payment_method") },
    };
    expect(confirmOutcome(declined, false, text)).toMatchObject({
      kind: "leave",
      redirect: null,
      paymentIntentId: "pi_1",
    });
  });

  it("sends the buyer to the 3DS page the provider names, or lets Stripe.js handle another action", () => {
    const redirect = intent("requires_action", {
      type: "redirect_to_url",
      redirect_to_url: { url: "https://bank.example/3ds" },
    });
    expect(confirmOutcome({ paymentIntent: redirect }, false, text)).toEqual({
      kind: "leave",
      redirect: "https://bank.example/3ds",
      paymentIntentId: "pi_1",
      handleNextAction: false,
    });
    expect(
      confirmOutcome({ paymentIntent: intent("requires_action", { type: "use_stripe_sdk" }) }, false, text),
    ).toMatchObject({ handleNextAction: true, redirect: null });
  });

  it("puts a refused field of a new card back to the buyer, and keeps the page for other errors", () => {
    const refused = (code: string, saved = false) =>
      confirmOutcome({ error: { type: "card_error", code } }, saved, text);
    expect(refused("incorrect_number")).toEqual({ kind: "fields", errors: { number: "numberLuhn" } });
    expect(refused("card_not_supported")).toEqual({ kind: "fields", errors: { number: "numberUnsupported" } });
    expect(refused("expired_card")).toEqual({ kind: "fields", errors: { expiry: "expiryPast" } });
    expect(refused("incorrect_cvc")).toEqual({ kind: "fields", errors: { cvc: "cvcFormat" } });
    expect(confirmOutcome({ error: { type: "api_connection_error" } }, false, text)).toEqual({
      kind: "problem",
      problem: "error",
    });
  });

  it("says a saved card the provider no longer has can no longer be used", () => {
    expect(confirmOutcome({ error: { type: "invalid_request_error", code: "resource_missing" } }, true, text)).toEqual({
      kind: "problem",
      problem: "savedCardUnavailable",
    });
    expect(confirmOutcome({ error: { type: "card_error", code: "expired_card" } }, true, text)).toEqual({
      kind: "problem",
      problem: "savedCardUnavailable",
    });
    expect(confirmOutcome({ error: { type: "invalid_request_error", code: "other" } }, true, text)).toEqual({
      kind: "problem",
      problem: "error",
    });
  });
});
