import { and, eq, ne, sql } from "drizzle-orm";
import { getDb } from "../../db/client";
import { payments, providerOperations, redirectPayments } from "../../db/schema";
import { isLocale } from "../../i18n/locales";
import type { Locale } from "../../i18n/routing";
import {
  ProviderRefusedError,
  ProviderUnavailableError,
  type ProviderCallContext,
  type ProviderOperationHandler,
  type ProviderOperationKind,
  type ProviderOperationRow,
} from "../../provider-operations";
import { settleCapture, settleRefund, settleRelease } from "../../payments/core/money-operation-settlements";
import type { RedirectAccount, RedirectProvider, RegisteredOrderRef } from "../contract/redirect-provider";
import { refundRetryVerdict } from "./refund-retry-verdict";

/*
 * A redirect provider's calls as provider operations (lib/provider-operations): recorded
 * before the call, called outside any transaction, settled after, reconciled when unanswered.
 * `register` puts the order at the provider when the buyer presses Pay; `refund` gives money
 * back (a merchant's refund, or the reversal of a late completion: request.reversal).
 */

const localeOf = (operation: ProviderOperationRow): Locale => {
  const locale = operation.request.locale;
  return typeof locale === "string" && isLocale(locale) ? locale : "en";
};

async function accountFor(provider: RedirectProvider, operation: ProviderOperationRow): Promise<RedirectAccount> {
  const account = await provider.account(await getDb(), String(operation.request.serviceId));
  // The merchant removed its credentials meanwhile: a definitive refusal, not an outage.
  if (!account) throw new ProviderRefusedError("not_configured", "The merchant has no credentials for this provider.");
  return account;
}

export function redirectRegisterHandler(provider: RedirectProvider): ProviderOperationHandler {
  return {
    provider: provider.provider,
    kind: "register",
    async call(operation) {
      const { request } = operation;
      const order = await provider.register(await accountFor(provider, operation), {
        orderNumber: String(request.orderNumber),
        amountMinor: operation.amountMinor!,
        currency: String(request.currency),
        returnUrl: String(request.returnUrl),
        locale: localeOf(operation),
        reference: String(request.reference),
        captureMethod: request.captureMethod === "RESERVATION" ? "RESERVATION" : "DIRECT",
        notifyUrl: String(request.notifyUrl ?? ""),
      });
      return { reference: order.orderId, data: { formUrl: order.formUrl } };
    },
    // The order is the buyer's way to the provider's page: kept with the payment, which does not change state.
    async settle(tx, { operation, payment, answer, now }) {
      const formUrl = String(answer.data?.formUrl ?? "");
      await tx
        .update(redirectPayments)
        .set({
          orderNumber: String(operation.request.orderNumber),
          providerOrderId: answer.reference,
          formUrl,
          registeredAt: now,
        })
        .where(eq(redirectPayments.paymentId, payment.id));
      await tx.update(payments).set({ providerOrderId: answer.reference }).where(eq(payments.id, payment.id));
      return { orderId: answer.reference, formUrl };
    },
  };
}

export function redirectRefundHandler(provider: RedirectProvider): ProviderOperationHandler {
  return {
    provider: provider.provider,
    kind: "refund",
    async call(operation, context) {
      const order = {
        account: await accountFor(provider, operation),
        orderId: String(operation.request.orderId),
        locale: localeOf(operation),
      };
      // An earlier attempt's answer was lost: the provider may have refunded already, and its
      // refund call has no idempotency key. Ask what it refunded in all first (refund-retry-verdict.ts).
      // A request retried with the same key (its first process may have died mid-call) leaves it to reconciliation.
      if (!context?.recordedNow) leaveToReconciliation(context);
      if (mayHaveBeenCalled(operation)) {
        const verdict = await refundRetryVerdictOf(provider, operation, order);
        if (verdict === "applied") return { reference: null };
        if (verdict === "ambiguous")
          throw new ProviderUnavailableError(
            `${provider.provider} refunded a total the gateway cannot match to this refund yet; asking again later`,
          );
      }
      const { reference } = await provider.refund({ ...order, amountMinor: operation.amountMinor! });
      return { reference };
    },
    // A reversal of a late completion moves no gateway books (settleRefund says so too).
    settle: settleRefund,
  };
}

async function refundRetryVerdictOf(
  provider: RedirectProvider,
  operation: ProviderOperationRow,
  order: RegisteredOrderRef & { account: RedirectAccount },
) {
  if (!provider.refundedTotal)
    throw new ProviderRefusedError(
      "refund_elsewhere",
      provider.refundElsewhere ?? "This provider's refunds happen elsewhere.",
    );
  const refundedAtProvider = await provider.refundedTotal(order);
  // The order's other refunds: those settled as done, and those whose fate is still open.
  const others = await (
    await getDb()
  )
    .select({
      id: providerOperations.id,
      status: providerOperations.status,
      amountMinor: providerOperations.amountMinor,
      createdAt: providerOperations.createdAt,
    })
    .from(providerOperations)
    .where(
      and(
        eq(providerOperations.paymentId, operation.paymentId!),
        eq(providerOperations.kind, "refund"),
        sql`${providerOperations.request}->>'orderId' = ${order.orderId}`,
        ne(providerOperations.id, operation.id),
        ne(providerOperations.status, "failed"),
      ),
    );
  const settledMinor = others
    .filter((other) => other.status === "succeeded")
    .reduce((sum, other) => sum + (other.amountMinor ?? 0), 0);
  const open = [
    ...others.filter((other) => other.status !== "succeeded"),
    { ...operation, status: "unknown" as const },
  ];
  open.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1));
  const refunds = open.map((refund, rank) => ({
    id: refund.id,
    amountMinor: refund.amountMinor ?? 0,
    rank,
    mayBeInFlight: refund.status === "pending",
  }));
  const self = refunds.find((refund) => refund.id === operation.id)!;
  return refundRetryVerdict({
    refundedAtProvider,
    settledMinor,
    self,
    others: refunds.filter((refund) => refund !== self),
  });
}

/**
 * Whether an earlier call of this (never deferred) operation may have reached the provider: an
 * attempt whose answer was lost, or a request that died between its call and its settle, which
 * reconciliation claimed pending past its lease (the claim moves updated_at).
 */
/**
 * Only the request that recorded the operation calls the provider directly. Any later call (a
 * merchant retrying with the same key, whose first request may have died mid-call or lost its
 * answer) is made by reconciliation alone: it holds the operation's lease, so two callers never
 * both find nothing done and call twice, and it waits at least 5 s, time for a provider still
 * finishing a lost call to finish it before the retry asks what it did.
 */
function leaveToReconciliation(context: ProviderCallContext | undefined): void {
  if (!context?.reconciling) {
    throw new ProviderUnavailableError("an earlier call's answer was lost: reconciliation completes the operation");
  }
}

const mayHaveBeenCalled = (operation: ProviderOperationRow) =>
  operation.attempts > 0 || operation.updatedAt.getTime() !== operation.createdAt.getTime();

/**
 * A pre-authorization's capture (all or part, contract 4) and release, for a provider that
 * takes them (RedirectProvider.reservations): the capture and release endpoints, the console's
 * buttons, the 7-day sweep and the expiry of an unpaid order all record these operations.
 */
/**
 * The kinds of operation a provider's payments record (provider_operations.kind), from what it
 * can do: register and refund always, capture and release where it reserves, release where it
 * closes unpaid orders. The handlers below are exactly these.
 */
export function redirectOperationKinds(provider: RedirectProvider): ProviderOperationKind[] {
  return [
    "register",
    "refund",
    ...(provider.reservations ? (["capture", "release"] as const) : provider.closeUnpaid ? (["release"] as const) : []),
  ];
}

export function redirectReservationHandlers(provider: RedirectProvider): ProviderOperationHandler[] {
  const reservations = provider.reservations;
  if (!reservations) return provider.closeUnpaid ? [redirectCloseHandler(provider, provider.closeUnpaid)] : [];
  const capture: ProviderOperationHandler = {
    provider: provider.provider,
    kind: "capture",
    async call(operation, context) {
      const order = {
        account: await accountFor(provider, operation),
        orderId: String(operation.request.orderId),
        locale: localeOf(operation),
      };
      // An earlier attempt's answer was lost (a timeout, a reset): the provider may have captured
      // already, and a second deposit.do or PostAuth of a captured order is refused. Ask first.
      // A request retried with the same key (its first process may have died mid-call) leaves it to reconciliation.
      if (!context?.recordedNow) leaveToReconciliation(context);
      if (mayHaveBeenCalled(operation)) {
        const outcome = await provider.outcome(order);
        if (outcome.kind === "paid" && outcome.amountMinor === operation.amountMinor) return { reference: null };
      }
      await reservations.capture({ ...order, amountMinor: operation.amountMinor! });
      return { reference: null };
    },
    // A partial deposit gives the rest of the hold back at the provider (RBS: deposit.do of less than approved).
    settle: (tx, context) =>
      settleCapture(tx, {
        ...context,
        answer: {
          reference: null,
          data: { releasedMinor: context.payment.amountMinor - context.operation.amountMinor! },
        },
      }),
  };
  const release: ProviderOperationHandler = {
    provider: provider.provider,
    kind: "release",
    async call(operation) {
      const result = await reservations.release({
        account: await accountFor(provider, operation),
        orderId: String(operation.request.orderId),
        locale: localeOf(operation),
      });
      return { reference: null, data: { result } };
    },
    settle: settleRelease,
  };
  return [capture, release];
}

/**
 * A DIRECT provider's close of an order left unpaid at expiry (RedirectProvider.closeUnpaid), recorded as its
 * `release`.
 */
function redirectCloseHandler(
  provider: RedirectProvider,
  closeUnpaid: NonNullable<RedirectProvider["closeUnpaid"]>,
): ProviderOperationHandler {
  return {
    provider: provider.provider,
    kind: "release",
    async call(operation) {
      const result = await closeUnpaid({
        account: await accountFor(provider, operation),
        orderId: String(operation.request.orderId),
        locale: localeOf(operation),
      });
      return { reference: null, data: { result } };
    },
    settle: settleRelease,
  };
}
