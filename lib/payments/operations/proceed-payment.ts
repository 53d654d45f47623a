import { serviceClock } from "../../clock";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import type { StateChangeCause } from "../core/state-change-cause";
import { ApiError } from "../../errors/api-error";
import type { BeforeCommit } from "../../idempotency/claim-idempotency-key";
import { logger } from "../../log";
import { assertMethodEnabled } from "../../payment-methods/method-enabled";
import type { PaymentMethodCode } from "../../payment-methods/codes/payment-method-codes";
import { lockOpenPaymentOrThrow } from "../core/open-payment";
import { pageLocaleOf } from "../../i18n/locales";
import { intentExpired, isExpiredIntent } from "../core/payment-expiry";
import { canTransition } from "../core/payment-state";
import type {
  PaymentCallHeaders,
  ProceedHandler,
  ProceedOutcome,
  ProceedPaymentBody,
  ProceedPrincipal,
} from "../../payment-methods/contract/proceed-contract";
import { prepareCardProceed, proceedWithCard } from "../../payment-methods/card/proceed-with-card";
import { prepareWalletProceed } from "../../payment-methods/wallet/prepare-wallet-proceed";
import { readProceedPayment } from "./read-proceed-payment";
import { ownerChargeRetried, proceedWithWallet, settled } from "../../payment-methods/wallet/proceed-with-wallet";
import { completeWalletCharge } from "../core/wallet-charge";
import { withdrawUnusedQrRequest } from "../core/wallet-qr";

/** The handler of each payment method code. */
const proceedHandlers: Record<PaymentMethodCode, ProceedHandler> = {
  WALLET_V2: proceedWithWallet,
  CARD_PROVIDER: proceedWithCard,
};

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
    remember?: BeforeCommit<ProceedOutcome>;
    /** The request's Idempotency-Key scope (IdempotencyScope.operationKey): a retry finds the charge its first attempt made. */
    operationKey?: string;
  },
): Promise<ProceedOutcome> {
  const { principal, input, headers } = options;
  const now = serviceClock(principal.service).now();
  const gatewayKey = await getGatewayKey(db);
  const locale = pageLocaleOf(headers["x-locale"]);

  const code = input.paymentMethodCode;
  const { payment: seen, methodEnabled } = await readProceedPayment(db, { principal, paymentId: options.paymentId, code });
  // Provider work a method needs before the payment is locked (never inside the transaction).
  // None for an intent past its grace: the transaction fails it and answers 410, so no provider
  // is asked (and no customer sent a code) for a payment that is over.
  const prepared = isExpiredIntent(seen, now)
    ? undefined
    : code === "CARD_PROVIDER"
      ? await prepareCardProceed(db, { principal, payment: seen })
      : { wallet: (await prepareWalletProceed(db, { principal, payment: seen, methodEnabled, now })) ?? undefined };
  // A QR request the wallet opened for a proceed the transaction then refused is withdrawn, so the customer cannot pay it.
  const withdrawUnused = () => withdrawUnusedQrRequest(db, { paymentId: options.paymentId, qr: prepared?.wallet?.qr });
  const outcome = await db.transaction(async (tx) => {
    const open = await lockOpenPaymentOrThrow(tx, { principal, paymentId: options.paymentId, now });
    // Committed although the call answers 410: the intent is over either way.
    if (open.expired) return { expired: true as const };
    const { payment } = open;
    if (!canTransition(payment.state, "require_action")) {
      const retried = await ownerChargeRetried(tx, { principal, payment, code, operationKey: options.operationKey });
      if (!retried) throw new ApiError("invalid_state", `Only a created payment can be proceeded; this one is ${payment.state}.`);
      return { expired: false as const, result: { ...settled(payment), pendingCharge: retried } };
    }
    assertMethodEnabled(methodEnabled, { country: payment.country, code });
    const sentCountry = headers["x-country-code"];
    if (sentCountry && sentCountry !== payment.country) {
      logger.warn({ paymentId: payment.id, sentCountry, country: payment.country }, "x-country-code differs from the intent's country");
    }
    const result = await proceedHandlers[input.paymentMethodCode](tx, {
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
    if (!result.pendingCharge) await options.remember?.(tx, result);
    return { expired: false as const, result };
  }).catch(async (error: unknown) => {
    await withdrawUnused();
    throw error;
  });
  if (outcome.expired) {
    await withdrawUnused();
    throw intentExpired();
  }
  const { pendingCharge, ...result } = outcome.result;
  if (!pendingCharge) return result;
  const charged = await completeWalletCharge(db, pendingCharge);
  return settled(charged);
}
