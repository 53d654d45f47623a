import { createHash } from "node:crypto";
import type { ServiceContext } from "../../auth/principal";
import type { Db } from "../../db/client";
import type { z } from "zod";
import { ApiError } from "../../errors/api-error";
import { zodDetails } from "../../errors/zod-details";
import { NEGATIVE_AMOUNT, readTypedAmount } from "../../money/typed-amount";
import { capturePaymentBody } from "../../payments/operations/capture-payment.schema";
import { refundPaymentBody } from "../../payments/operations/refund-payment.schema";
import { consoleCause } from "../../payments/core/state-change-cause";
import { capturePayment } from "../../payments/operations/capture-payment";
import { refundPayment, type RefundOutcome } from "../../payments/operations/refund-payment";
import { releasePayment } from "../../payments/operations/release-payment";
import type { PaymentRow } from "../../db/payment-record";
import type { WithinTransaction } from "../../provider-operations";
import { clientPrincipalForConsole } from "./client-principal-for-console";

/*
 * Capture, release and refund from the console: the API's own operations (same rules, the
 * provider-operation boundary, notifications), acting for the service, with the console user's
 * email as the cause of the change. The form carries its own key (`formKey`, a random token
 * rendered into the form): it names the provider operation, so a form posted twice finds the
 * first operation and runs once. What the page layer adds around these: the session, the role
 * check (owner, support), the forgery token and the audit log entry.
 */

export interface ConsoleActor {
  service: ServiceContext;
  userEmail: string;
}

interface ConsoleForm {
  paymentId: string;
  /** The form's own idempotency key. */
  formKey: string;
  /** The audit entry, written in the transaction that records the operation (not again on a repost). */
  withinTransaction?: WithinTransaction;
}

const operationKey = (actor: ConsoleActor, action: string, formKey: string) =>
  `console:${actor.service.id}:${action}:${formKey}`;

/**
 * The values the form was posted with: the same form posted again with other values (the amount
 * changed after going back) is refused as the API refuses a key reused with another body, instead
 * of answering the first operation's outcome as if it were the second's.
 */
const formFingerprint = (values: Record<string, unknown>) =>
  createHash("sha256").update(JSON.stringify(values)).digest("hex");

/**
 * An amount field as typed (standard units, a decimal comma too: lib/money/typed-amount.ts); empty
 * means the whole amount. A negative amount is refused with its own message; text that is no
 * number goes on as NaN, for the API's schema to say "must be a number".
 */
function amountOf(text: string | undefined | null): number | undefined {
  const typed = readTypedAmount(text);
  if (typed.kind === "negative")
    throw new ApiError("validation_error", "The request is invalid.", [{ path: "amount", message: NEGATIVE_AMOUNT }]);
  return typed.kind === "empty" ? undefined : typed.kind === "amount" ? typed.value : Number.NaN;
}

/** The API's own body schema: a refused field is a validation_error naming it, for the page to show beside it. */
function bodyOrRefuse<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new ApiError("validation_error", "The request is invalid.", zodDetails(parsed.error));
  return parsed.data;
}

export async function captureFromConsole(
  db: Db,
  actor: ConsoleActor,
  form: ConsoleForm & { amount?: string | null },
): Promise<PaymentRow> {
  const input = bodyOrRefuse(capturePaymentBody, { amount: amountOf(form.amount) });
  return capturePayment(db, {
    principal: clientPrincipalForConsole(actor.service),
    paymentId: form.paymentId,
    cause: consoleCause(actor.userEmail),
    withinTransaction: form.withinTransaction,
    input,
    operationKey: operationKey(actor, "capture", form.formKey),
    operationFingerprint: formFingerprint({ amount: input.amount ?? null }),
  });
}

export async function releaseFromConsole(db: Db, actor: ConsoleActor, form: ConsoleForm): Promise<PaymentRow> {
  return releasePayment(db, {
    principal: clientPrincipalForConsole(actor.service),
    paymentId: form.paymentId,
    cause: consoleCause(actor.userEmail),
    withinTransaction: form.withinTransaction,
    operationKey: operationKey(actor, "release", form.formKey),
  });
}

/** The form's reason is the refund's description (what the API requires) and its reason. */
export async function refundFromConsole(
  db: Db,
  actor: ConsoleActor,
  form: ConsoleForm & { amount?: string | null; reason: string },
): Promise<RefundOutcome> {
  const reason = form.reason.trim();
  const input = bodyOrRefuse(refundPaymentBody, {
    description: reason,
    amount: amountOf(form.amount),
    ...(reason ? { reason } : {}),
  });
  return refundPayment(db, {
    principal: clientPrincipalForConsole(actor.service),
    paymentId: form.paymentId,
    cause: consoleCause(actor.userEmail),
    withinTransaction: form.withinTransaction,
    input,
    operationKey: operationKey(actor, "refund", form.formKey),
    operationFingerprint: formFingerprint({
      amount: input.amount ?? null,
      description: input.description,
      reason: input.reason ?? null,
    }),
  });
}
