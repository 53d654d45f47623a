import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors/api-error";
import { settledOrThrow, type CardFinalizeResult } from "@/lib/payment-methods/card/card-finalize-result";

const paymentId = "3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12";

function refusal(result: CardFinalizeResult): { name: string; status: number } {
  try {
    settledOrThrow(result);
  } catch (error) {
    if (error instanceof ApiError) return { name: error.errorName, status: error.status };
    throw error;
  }
  throw new Error("settledOrThrow answered a result that is not settled");
}

describe("the merchant's card finalize answers each result of finalizeCardPayment", () => {
  it("answers the settled outcome as it is", () => {
    const outcome = { status: "succeeded" as const, paymentId, statusCode: 2 };
    expect(settledOrThrow({ kind: "settled", outcome })).toBe(outcome);
  });

  it("answers every other result as the contract's error", () => {
    expect(refusal({ kind: "awaiting_buyer", step: "3ds" })).toEqual({ name: "invalid_state", status: 409 });
    expect(refusal({ kind: "awaiting_buyer", step: "confirmation" })).toEqual({ name: "invalid_state", status: 409 });
    expect(refusal({ kind: "declined", reason: "card_declined" })).toEqual({ name: "invalid_state", status: 409 });
    expect(refusal({ kind: "canceled_at_provider" })).toEqual({ name: "invalid_state", status: 409 });
    expect(refusal({ kind: "reversed", state: "FAILED" })).toEqual({ name: "invalid_state", status: 409 });
    expect(refusal({ kind: "wrong_card" })).toEqual({ name: "invalid_state", status: 409 });
    expect(refusal({ kind: "unknown_intent" })).toEqual({ name: "not_found", status: 404 });
    expect(refusal({ kind: "expired" }).name).toBe("intent_expired");
    expect(refusal({ kind: "provider_unavailable" })).toEqual({ name: "provider_unavailable", status: 503 });
  });
});
