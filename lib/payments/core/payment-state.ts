import { paymentState } from "../../db/schema/payments";
import { ApiError } from "../../errors/api-error";

/**
 * Interface "States and transitions", in the table's order. The schema's pgEnum is the one list,
 * so the database and the rules below cannot drift apart.
 */
export const PAYMENT_STATES = paymentState.enumValues;

export type PaymentState = (typeof PAYMENT_STATES)[number];

/** The state's code from the interface's states table; CREATED and PROCESSING have none. */
export function stateCode(state: PaymentState): number | null {
  switch (state) {
    case "CREATED":
    case "PROCESSING":
      return null;
    case "REQUIRES_ACTION":
      return 12;
    case "PRE_AUTHORIZED":
      return 13;
    case "SUCCEEDED":
      return 2;
    case "FAILED":
      return 3;
    case "CANCELED":
      return 10;
    case "REFUNDED":
      return 4;
    case "PARTIALLY_REFUNDED":
      return 16;
  }
}

/** What check reports (contract section 11): a state without a code is still "proceeding" (1). */
export function checkStatusCode(state: PaymentState): number {
  return stateCode(state) ?? 1;
}

/** Contract section 11: only these are bound by the 30-minute lifetime. */
export function isTerminal(state: PaymentState): boolean {
  switch (state) {
    case "CREATED":
    case "PROCESSING":
    case "REQUIRES_ACTION":
    case "PRE_AUTHORIZED":
      return false;
    case "SUCCEEDED":
    case "FAILED":
    case "CANCELED":
    case "REFUNDED":
    case "PARTIALLY_REFUNDED":
      return true;
  }
}

/**
 * Every allowed transition, as data: the event, the states it may start from, and the state
 * it leads to. Anything else is refused with invalid_state, never ignored.
 */
export const TRANSITIONS = {
  // CREATED -> REQUIRES_ACTION: the wallet needs an OTP, or the card its hosted page.
  require_action: { from: ["CREATED"], to: "REQUIRES_ACTION", refusal: "Only a created payment can be proceeded" },
  // CREATED -> PROCESSING: the provider works asynchronously (QR wallet).
  start_processing: { from: ["CREATED"], to: "PROCESSING", refusal: "Only a created payment can be proceeded" },
  succeed: {
    from: ["CREATED", "PROCESSING", "REQUIRES_ACTION"],
    to: "SUCCEEDED",
    refusal: "The payment is no longer awaiting completion",
  },
  pre_authorize: {
    from: ["CREATED", "PROCESSING", "REQUIRES_ACTION"],
    to: "PRE_AUTHORIZED",
    refusal: "The payment is no longer awaiting completion",
  },
  fail: {
    from: ["CREATED", "PROCESSING", "REQUIRES_ACTION"],
    to: "FAILED",
    refusal: "The payment is no longer awaiting completion",
  },
  expire: {
    from: ["CREATED", "PROCESSING", "REQUIRES_ACTION"],
    to: "FAILED",
    refusal: "Only an open payment can expire",
  },
  capture: { from: ["PRE_AUTHORIZED"], to: "SUCCEEDED", refusal: "Only a pre-authorized payment can be captured" },
  release: { from: ["PRE_AUTHORIZED"], to: "CANCELED", refusal: "Only a pre-authorized payment can be released" },
  // Automatic release of a reservation left alone 7 days (contract section 4).
  release_stale: { from: ["PRE_AUTHORIZED"], to: "CANCELED", refusal: "Only a pre-authorized payment can be released" },
  refund_full: {
    from: ["SUCCEEDED", "PARTIALLY_REFUNDED"],
    to: "REFUNDED",
    refusal: "Only a captured payment can be refunded",
  },
  refund_partial: {
    from: ["SUCCEEDED", "PARTIALLY_REFUNDED"],
    to: "PARTIALLY_REFUNDED",
    refusal: "Only a captured payment can be refunded",
  },
} as const satisfies Record<string, { from: readonly PaymentState[]; to: PaymentState; refusal: string }>;

export type PaymentEvent = keyof typeof TRANSITIONS;

export function canTransition(from: PaymentState, event: PaymentEvent): boolean {
  return (TRANSITIONS[event].from as readonly PaymentState[]).includes(from);
}

/** The state `event` leads to from `from`; throws invalid_state when the table does not allow it. */
export function transition(from: PaymentState, event: PaymentEvent): PaymentState {
  if (!canTransition(from, event)) {
    throw new ApiError("invalid_state", `${TRANSITIONS[event].refusal}; this one is ${from}.`);
  }
  return TRANSITIONS[event].to;
}

/** Throws invalid_state unless the payment may take `event`. */
export function assertTransition(from: PaymentState, event: PaymentEvent): void {
  transition(from, event);
}
