import type { ProviderOperationRow } from "../../provider-operations";

/**
 * Who made a payment's state change, as the console's timeline shows it (contract section 13):
 * the merchant's server through the API, the buyer on a hosted page (OTP, card, QR answer), the
 * gateway itself (sweeps, reconciliation, the provider's events, the rules of time), or a console
 * user. Every transition states one (applyTransition requires it), so it is recorded where the
 * change happens, never guessed afterwards.
 */
export type StateChangeCause =
  { kind: "api" } | { kind: "buyer" } | { kind: "system" } | { kind: "console"; userEmail: string };

export const API_CAUSE: StateChangeCause = { kind: "api" };
export const BUYER_CAUSE: StateChangeCause = { kind: "buyer" };
export const SYSTEM_CAUSE: StateChangeCause = { kind: "system" };
export const consoleCause = (userEmail: string): StateChangeCause => ({ kind: "console", userEmail });

/** The cause's two columns (payment_state_changes.cause, console_user_email). */
export function causeColumns(cause: StateChangeCause): {
  cause: StateChangeCause["kind"];
  consoleUserEmail: string | null;
} {
  return { cause: cause.kind, consoleUserEmail: cause.kind === "console" ? cause.userEmail : null };
}

/**
 * A provider operation settles later, maybe in reconciliation: the change it makes is the one
 * its request asked for, so the request's cause travels in the operation's `request`.
 */
export function causeRequestFields(cause: StateChangeCause): Record<string, unknown> {
  return cause.kind === "console" ? { cause: cause.kind, causeUserEmail: cause.userEmail } : { cause: cause.kind };
}

/** The cause recorded with the operation; an operation recorded before causes were kept counts as the gateway's. */
export function causeOfOperation(operation: Pick<ProviderOperationRow, "request">): StateChangeCause {
  const { cause, causeUserEmail } = operation.request;
  switch (cause) {
    case "api":
      return API_CAUSE;
    case "buyer":
      return BUYER_CAUSE;
    case "console":
      return typeof causeUserEmail === "string" ? consoleCause(causeUserEmail) : SYSTEM_CAUSE;
    default:
      return SYSTEM_CAUSE;
  }
}
