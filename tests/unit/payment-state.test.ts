import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors/api-error";
import { notificationOf } from "@/lib/payments/core/notify-payment-change";
import {
  canTransition,
  checkStatusCode,
  isTerminal,
  PAYMENT_STATES,
  stateCode,
  transition,
  TRANSITIONS,
  type PaymentEvent,
  type PaymentState,
} from "@/lib/payments/core/payment-state";

// The interface's "States and transitions" table, written out independently of the module.
const EXPECTED: Record<PaymentEvent, Partial<Record<PaymentState, PaymentState>>> = {
  require_action: { CREATED: "REQUIRES_ACTION" },
  start_processing: { CREATED: "PROCESSING" },
  succeed: { CREATED: "SUCCEEDED", PROCESSING: "SUCCEEDED", REQUIRES_ACTION: "SUCCEEDED" },
  pre_authorize: { CREATED: "PRE_AUTHORIZED", PROCESSING: "PRE_AUTHORIZED", REQUIRES_ACTION: "PRE_AUTHORIZED" },
  fail: { CREATED: "FAILED", PROCESSING: "FAILED", REQUIRES_ACTION: "FAILED" },
  expire: { CREATED: "FAILED", PROCESSING: "FAILED", REQUIRES_ACTION: "FAILED" },
  capture: { PRE_AUTHORIZED: "SUCCEEDED" },
  release: { PRE_AUTHORIZED: "CANCELED" },
  release_stale: { PRE_AUTHORIZED: "CANCELED" },
  refund_full: { SUCCEEDED: "REFUNDED", PARTIALLY_REFUNDED: "REFUNDED" },
  refund_partial: { SUCCEEDED: "PARTIALLY_REFUNDED", PARTIALLY_REFUNDED: "PARTIALLY_REFUNDED" },
};

const events = Object.keys(TRANSITIONS) as PaymentEvent[];
const pairs = events.flatMap((event) => PAYMENT_STATES.map((state) => [state, event] as const));

describe("payment state machine", () => {
  it("covers exactly the events of the expected table", () => {
    expect(events.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(pairs)(
    "%s on %s: allowed exactly as the table says, refused with invalid_state otherwise",
    (state, event) => {
      const expected = EXPECTED[event][state];
      expect(canTransition(state, event)).toBe(expected !== undefined);
      if (expected) {
        expect(transition(state, event)).toBe(expected);
      } else {
        let thrown: unknown;
        try {
          transition(state, event);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(ApiError);
        expect((thrown as ApiError).errorName).toBe("invalid_state");
        expect((thrown as ApiError).status).toBe(409);
        expect((thrown as ApiError).message).toContain(state);
      }
    },
  );

  it("never leaves a terminal state except by refunding a captured payment", () => {
    for (const [state, event] of pairs) {
      if (isTerminal(state) && canTransition(state, event)) {
        expect(["SUCCEEDED", "PARTIALLY_REFUNDED"]).toContain(state);
        expect(event.startsWith("refund_")).toBe(true);
      }
    }
  });
});

describe("status codes", () => {
  it.each([
    ["CREATED", null, 1],
    ["PROCESSING", null, 1],
    ["REQUIRES_ACTION", 12, 12],
    ["PRE_AUTHORIZED", 13, 13],
    ["SUCCEEDED", 2, 2],
    ["FAILED", 3, 3],
    ["CANCELED", 10, 10],
    ["REFUNDED", 4, 4],
    ["PARTIALLY_REFUNDED", 16, 16],
  ] as const)("%s has code %s and checks as %i", (state, code, checked) => {
    expect(stateCode(state)).toBe(code);
    expect(checkStatusCode(state)).toBe(checked);
  });

  it("treats only CREATED, PROCESSING, REQUIRES_ACTION and PRE_AUTHORIZED as open (contract 11)", () => {
    expect(PAYMENT_STATES.filter((state) => !isTerminal(state))).toEqual([
      "CREATED",
      "PROCESSING",
      "REQUIRES_ACTION",
      "PRE_AUTHORIZED",
    ]);
  });
});

describe("notifications per transition", () => {
  it("notifies every change into 2, 3, 13, 10, 4 or 16 and nothing else", () => {
    for (const event of events) {
      const to = TRANSITIONS[event].to;
      const notified = notificationOf(event) !== null;
      expect(notified, event).toBe([2, 3, 13, 10, 4, 16].includes(checkStatusCode(to)));
    }
  });

  it.each([
    ["succeed", "payment.succeeded", 2],
    ["fail", "payment.failed", 3],
    ["expire", "payment.failed", 3],
    ["pre_authorize", "payment.pre_authorized", 13],
    ["capture", "payment.captured", 2],
    ["release", "payment.released", 10],
    ["release_stale", "payment.released", 10],
    ["refund_full", "payment.refunded", 4],
    ["refund_partial", "payment.refunded", 4],
  ] as const)("%s sends %s with remoteStatusCode %i", (event, type, remoteStatusCode) => {
    expect(notificationOf(event)).toEqual({ type, remoteStatusCode });
  });
});
