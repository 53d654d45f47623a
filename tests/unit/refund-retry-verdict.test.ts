import { describe, expect, it } from "vitest";
import { refundRetryVerdict, type OpenRefund } from "@/lib/payment-methods/redirect/refund-retry-verdict";

const refund = (amountMinor: number, rank: number, mayBeInFlight = false): OpenRefund => ({
  amountMinor,
  rank,
  mayBeInFlight,
});

describe("a redirect refund whose answer was lost, judged by the provider's refunded total", () => {
  it("went through when the provider's total counts it", () => {
    expect(refundRetryVerdict({ refundedAtProvider: 700, settledMinor: 200, self: refund(500, 0), others: [] })).toBe(
      "applied",
    );
  });

  it("did not when the provider's total is what the gateway already settled", () => {
    expect(refundRetryVerdict({ refundedAtProvider: 200, settledMinor: 200, self: refund(500, 0), others: [] })).toBe(
      "not_applied",
    );
  });

  it("tells which of two open refunds of different amounts went through", () => {
    // 300 open beside this 500: a provider total of 300 is the other one alone.
    expect(
      refundRetryVerdict({
        refundedAtProvider: 300,
        settledMinor: 0,
        self: refund(500, 1),
        others: [refund(300, 0, true)],
      }),
    ).toBe("not_applied");
    expect(
      refundRetryVerdict({
        refundedAtProvider: 500,
        settledMinor: 0,
        self: refund(500, 1),
        others: [refund(300, 0, true)],
      }),
    ).toBe("applied");
    expect(
      refundRetryVerdict({
        refundedAtProvider: 800,
        settledMinor: 0,
        self: refund(500, 1),
        others: [refund(300, 0, true)],
      }),
    ).toBe("applied");
  });

  it("counts the earliest of equal open refunds as the one that went through, so both of them decide alike", () => {
    const first = refund(500, 0);
    const second = refund(500, 1);
    expect(refundRetryVerdict({ refundedAtProvider: 500, settledMinor: 0, self: first, others: [second] })).toBe(
      "applied",
    );
    expect(refundRetryVerdict({ refundedAtProvider: 500, settledMinor: 0, self: second, others: [first] })).toBe(
      "not_applied",
    );
    // Both went through: nothing to choose.
    expect(refundRetryVerdict({ refundedAtProvider: 1000, settledMinor: 0, self: second, others: [first] })).toBe(
      "applied",
    );
  });

  it("waits while an equal refund may still be reaching the provider", () => {
    expect(
      refundRetryVerdict({
        refundedAtProvider: 500,
        settledMinor: 0,
        self: refund(500, 1),
        others: [refund(500, 0, true)],
      }),
    ).toBe("ambiguous");
  });

  it("cannot tell explanations of different amounts apart, nor a total nothing explains: never calls again", () => {
    // 500 is this refund, or the other two together.
    expect(
      refundRetryVerdict({
        refundedAtProvider: 500,
        settledMinor: 0,
        self: refund(500, 2),
        others: [refund(300, 0), refund(200, 1)],
      }),
    ).toBe("ambiguous");
    // Refunded in the provider's back office: 50 nobody here asked for.
    expect(refundRetryVerdict({ refundedAtProvider: 550, settledMinor: 0, self: refund(500, 0), others: [] })).toBe(
      "ambiguous",
    );
  });

  it("gives up enumerating past twelve other open refunds", () => {
    const others = Array.from({ length: 13 }, (_, index) => refund(1000, index + 1));
    expect(refundRetryVerdict({ refundedAtProvider: 1, settledMinor: 0, self: refund(1, 0), others })).toBe(
      "ambiguous",
    );
  });
});
