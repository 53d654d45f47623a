import { serviceClock } from "../../clock";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import type { StateChangeCause } from "../core/state-change-cause";
import { ApiError } from "../../errors/api-error";
import type { BeforeCommit } from "../../idempotency/claim-idempotency-key";
import { logger } from "../../log";
import { assertMethodEnabled } from "../../payment-methods/method-enabled";
import { lockOpenPaymentOrThrow } from "../core/open-payment";
import { pageLocaleOf } from "../../i18n/locales";
import { intentExpired, isExpiredIntent } from "../core/payment-expiry";
import { canTransition } from "../core/payment-state";
import {
  outcomeWithNothingForBuyer,
  type PaymentCallHeaders,
  type ProceedOutcome,
  type ProceedPaymentBody,
  type ProceedPrincipal,
} from "../../payment-methods/contract/proceed-contract";
import { PAYMENT_METHODS } from "../../payment-methods/registry/payment-method-registry";
import { methodFunds } from "../../payment-methods/registry/method-funds";
import { readProceedPayment } from "./read-proceed-payment";

/**
 * Proceeds a CREATED intent with a payment method, in one transaction that locks the payment.
 * Past the 30-minute grace an open intent fails (3, expired) and the call answers 410.
 */
export async function proceedPayment(
  db: Db,
  options: {
    principal: ProceedPrincipal;
    paymentId: string;
    /** `api` for the endpoint; the hosted checkout proceeds for the buyer. */
    cause: StateChangeCause;
    input: ProceedPaymentBody;
    headers: PaymentCallHeaders;
    /**
     * Called with the outcome just before the transaction commits (the request's idempotent answer is stored
     * there: endpoint.ts).
     */
    storeAnswer?: BeforeCommit<ProceedOutcome>;
    /**
     * The request's Idempotency-Key scope (IdempotencyScope.operationKey): a retry finds the charge its first
     * attempt made.
     */
    operationKey?: string;
  },
): Promise<ProceedOutcome> {
  const { principal, input, headers } = options;
  const now = serviceClock(principal.service).now();
  const gatewayKey = await getGatewayKey(db);
  const locale = pageLocaleOf(headers["x-locale"]);

  const code = input.paymentMethodCode;
  const method = PAYMENT_METHODS[code];
  const { payment: seen, methodEnabled } = await readProceedPayment(db, {
    principal,
    paymentId: options.paymentId,
    code,
  });
  // Provider work a method needs before the payment is locked (never inside the transaction).
  // None for an intent past its grace: the transaction fails it and answers 410, so no provider
  // is asked (and no customer sent a code) for a payment that is over.
  const prepared = isExpiredIntent(seen, now)
    ? null
    : await method.prepareProceed(db, { principal, payment: seen, methodEnabled, now });
  const withdrawUnused = () => method.withdrawPrepared(db, { paymentId: options.paymentId, prepared });
  const outcome = await db
    .transaction(async (tx) => {
      const open = await lockOpenPaymentOrThrow(tx, {
        principal,
        paymentId: options.paymentId,
        now,
        methods: methodFunds,
      });
      // Committed although the call answers 410: the intent is over either way.
      if (open.expired) return { expired: true as const };
      const { payment } = open;
      if (!canTransition(payment.state, "require_action")) {
        const retried = await method.chargeToRetryOnProceed(tx, {
          principal,
          payment,
          operationKey: options.operationKey,
        });
        if (!retried)
          throw new ApiError("invalid_state", `Only a created payment can be proceeded; this one is ${payment.state}.`);
        return { expired: false as const, result: { ...outcomeWithNothingForBuyer(payment), pendingCharge: retried } };
      }
      assertMethodEnabled(methodEnabled, { country: payment.country, code });
      const sentCountry = headers["x-country-code"];
      if (sentCountry && sentCountry !== payment.country) {
        logger.warn(
          { paymentId: payment.id, sentCountry, country: payment.country },
          "x-country-code differs from the intent's country",
        );
      }
      const result = await method.proceed(tx, {
        principal,
        payment,
        input,
        locale,
        now,
        gatewayKey,
        prepared,
        operationKey: options.operationKey,
        cause: options.cause,
        changes: { paymentMethodCode: input.paymentMethodCode, platform: headers["x-platform"], locale },
      });
      // A charge sent after the commit is answered (and remembered) once it is settled.
      if (!result.pendingCharge) await options.storeAnswer?.(tx, result);
      return { expired: false as const, result };
    })
    .catch(async (error: unknown) => {
      await withdrawUnused();
      throw error;
    });
  if (outcome.expired) {
    await withdrawUnused();
    throw intentExpired();
  }
  const { pendingCharge, ...result } = outcome.result;
  if (!pendingCharge) return result;
  return outcomeWithNothingForBuyer(await method.completePendingCharge(db, pendingCharge));
}
