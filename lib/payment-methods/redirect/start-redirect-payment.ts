import { and, eq } from "drizzle-orm";
import { serviceClock } from "../../clock";
import type { Db } from "../../db/client";
import { findPayment, lockPaymentWithService } from "../../db/payment-record";
import { providerOperations } from "../../db/schema";
import { ApiError } from "../../errors/api-error";
import type { Locale } from "../../i18n/routing";
import { logger } from "../../log";
import {
  beginProviderOperation,
  completeProviderOperation,
  operationId,
  type ProviderOperationRow,
} from "../../provider-operations";
import { expirePayment } from "../../payments/core/expire-payment";
import { redirectFunds } from "./redirect-funds";
import { isExpiredIntent } from "../../payments/core/payment-expiry";
import { redirectNotifyUrl, redirectReturnUrl } from "../../urls/hosted-urls";
import type { RedirectProvider } from "../contract/redirect-provider";
import { redirectRegisterHandler } from "./redirect-operations";
import { findRedirectPayment } from "./redirect-record";

/** The refusal code of a provider's register for an order number it already has (RedirectProvider.register). */
export const ORDER_NUMBER_TAKEN = "order_number_taken";

/** What pressing Pay on the page before the provider's led to. */
export type RedirectStart =
  /** On to the provider's page for the order (for a provider with browserForm: by posting `form`, signed here). */
  | { kind: "go"; formUrl: string; form?: { action: string; fields: Record<string, string> } }
  /** The payment no longer waits for the buyer (paid, failed, expired): the return page says how it stands. */
  | { kind: "not_waiting" }
  /** The provider did not answer: nothing was shown to the buyer, the registration is reconciled; Pay again later. */
  | { kind: "unavailable" }
  /** The provider refused the order (its credentials, its rules): the page says so. */
  | { kind: "refused" };

/**
 * The buyer pressed Pay (contract 15): the order is registered with the provider as a provider
 * operation (recorded, keyed, called outside the transaction, never twice: a second press, a
 * reload or a double click finds the same operation, or the order it registered), and the
 * buyer goes to the provider's page. A registration the provider refused leaves the next press
 * a new order number.
 */
export async function startRedirectPayment(
  db: Db,
  options: { paymentId: string; provider: RedirectProvider; locale: Locale; token: string; retried?: boolean },
): Promise<RedirectStart> {
  const started = await registerRedirectOrder(db, options);
  return started.kind === "go" && options.provider.browserForm ? withBrowserForm(db, options, started) : started;
}

/**
 * The signed form the buyer's browser posts to a provider without a registration call (CMI), built for the
 * registered order.
 */
async function withBrowserForm(
  db: Db,
  options: { paymentId: string; provider: RedirectProvider; locale: Locale; token: string },
  started: RedirectStart & { kind: "go" },
): Promise<RedirectStart> {
  const [payment, redirect] = await Promise.all([
    findPayment(db, options.paymentId),
    findRedirectPayment(db, options.paymentId),
  ]);
  const account = payment ? await options.provider.account(db, payment.serviceId) : null;
  if (!payment || !redirect?.providerOrderId || !redirect.orderNumber || !account) return { kind: "refused" };
  const form = options.provider.browserForm!(account, {
    orderNumber: redirect.orderNumber,
    orderId: redirect.providerOrderId,
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    returnUrl: redirectReturnUrl({ locale: options.locale, paymentId: options.paymentId, token: options.token }),
    locale: options.locale,
    reference: payment.actionId,
    captureMethod: payment.captureMethod === "RESERVATION" ? "RESERVATION" : "DIRECT",
    notifyUrl: redirectNotifyUrl(options.paymentId),
  });
  return { ...started, form };
}

async function registerRedirectOrder(
  db: Db,
  options: { paymentId: string; provider: RedirectProvider; locale: Locale; token: string; retried?: boolean },
): Promise<RedirectStart> {
  const { paymentId, provider } = options;
  const step = await db.transaction(
    async (tx): Promise<RedirectStart | { kind: "operation"; operation: ProviderOperationRow }> => {
      const locked = await lockPaymentWithService(tx, paymentId);
      if (!locked || locked.payment.state !== "REQUIRES_ACTION") return { kind: "not_waiting" };
      const { payment, service } = locked;
      const now = serviceClock(service).now();
      if (isExpiredIntent(payment, now)) {
        await expirePayment(tx, { payment, now, funds: redirectFunds(provider) });
        return { kind: "not_waiting" };
      }
      const redirect = await findRedirectPayment(tx, paymentId, { lock: true });
      if (!redirect) return { kind: "not_waiting" };
      if (redirect.formUrl) return { kind: "go", formUrl: redirect.formUrl };
      const registrations = await tx
        .select({ id: providerOperations.id, status: providerOperations.status })
        .from(providerOperations)
        .where(and(eq(providerOperations.paymentId, paymentId), eq(providerOperations.kind, "register")));
      const open = registrations.find((operation) => operation.status === "pending" || operation.status === "unknown");
      if (open) {
        const [operation] = await tx.select().from(providerOperations).where(eq(providerOperations.id, open.id));
        return { kind: "operation", operation: operation! };
      }
      const attempt = registrations.length;
      const operation = await beginProviderOperation(tx, {
        id: operationId(`redirect-register:${paymentId}:${attempt}`),
        paymentId,
        provider: provider.provider,
        kind: "register",
        amountMinor: payment.amountMinor,
        now,
        request: {
          orderNumber: provider.orderNumberFor(paymentId, attempt),
          currency: payment.currency,
          returnUrl: redirectReturnUrl({ locale: options.locale, paymentId, token: options.token }),
          notifyUrl: redirectNotifyUrl(paymentId),
          reference: payment.actionId,
          captureMethod: payment.captureMethod,
          serviceId: payment.serviceId,
          locale: options.locale,
        },
      });
      return { kind: "operation", operation };
    },
  );
  if (step.kind !== "operation") return step;
  try {
    const settled = await completeProviderOperation(db, step.operation, redirectRegisterHandler(provider));
    // A registration whose answer was lost (the provider slow or down) may have created the order
    // after all: its number is taken, so the press goes on at once with the next number. The lost
    // order was never shown to the buyer and lapses unpaid at the provider.
    if (settled.status === "failed" && settled.resultCode === ORDER_NUMBER_TAKEN && !options.retried)
      return registerRedirectOrder(db, { ...options, retried: true });
    if (settled.status === "failed") {
      logger.warn(
        { paymentId, operationId: settled.id, code: settled.resultCode },
        "provider refused the order registration",
      );
      return { kind: "refused" };
    }
    const formUrl = settled.result?.formUrl;
    if (typeof formUrl === "string" && formUrl) return { kind: "go", formUrl };
    // Settled by another press meanwhile: its order is on the payment.
    const redirect = await findRedirectPayment(db, paymentId);
    return redirect?.formUrl ? { kind: "go", formUrl: redirect.formUrl } : { kind: "unavailable" };
  } catch (error) {
    if (
      error instanceof ApiError &&
      (error.errorName === "provider_unavailable" || error.errorName === "request_in_progress")
    )
      return { kind: "unavailable" };
    throw error;
  }
}
