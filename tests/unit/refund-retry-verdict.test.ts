import { describe, expect, it } from "vitest";
import { refundRetryVerdict } from "@/lib/payment-methods/redirect/refund-retry-verdict";

describe("a redirect refund whose answer was lost, judged by the provider's refunded total", () => {
  it("went through when the provider's total counts it", () => {
    expect(refundRetryVerdict({ refundedAtProvider: 700, settledMinor: 200, amountMinor: 500, otherOpenMinor: [] })).toBe("applied");
  });

  it("did not when the provider's total is what the gateway already settled", () => {
    expect(refundRetryVerdict({ refundedAtProvider: 200, settledMinor: 200, amountMinor: 500, otherOpenMinor: [] })).toBe("not_applied");
  });

  it("tells which of two open refunds of different amounts went through", () => {
    // 300 open beside this 500: a provider total of 300 is the other one alone.
    expect(refundRetryVerdict({ refundedAtProvider: 300, settledMinor: 0, amountMinor: 500, otherOpenMinor: [300] })).toBe("not_applied");
    expect(refundRetryVerdict({ refundedAtProvider: 500, settledMinor: 0, amountMinor: 500, otherOpenMinor: [300] })).toBe("applied");
    expect(refundRetryVerdict({ refundedAtProvider: 800, settledMinor: 0, amountMinor: 500, otherOpenMinor: [300] })).toBe("applied");
  });

  it("cannot tell two open refunds of one amount apart, nor a total nothing explains, and so never calls again", () => {
    expect(refundRetryVerdict({ refundedAtProvider: 500, settledMinor: 0, amountMinor: 500, otherOpenMinor: [500] })).toBe("ambiguous");
    // Refunded in the provider's back office: 50 nobody here asked for.
    expect(refundRetryVerdict({ refundedAtProvider: 550, settledMinor: 0, amountMinor: 500, otherOpenMinor: [] })).toBe("ambiguous");
  });

  it("gives up enumerating past twelve other open refunds", () => {
    expect(refundRetryVerdict({ refundedAtProvider: 1, settledMinor: 0, amountMinor: 1, otherOpenMinor: Array.from({ length: 13 }, () => 1000) })).toBe("ambiguous");
  });
});
