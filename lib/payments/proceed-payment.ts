import { serviceClock } from "../clock";
import { getGatewayKey } from "../crypto/gateway-key";
import type { Db } from "../db/client";
import { ApiError } from "../http/api-error";
import type { BeforeCommit } from "../idempotency/claim-idempotency-key";
import { logger } from "../log";
import { expirePayment } from "./expire-payment";
import { getPaymentOrThrow } from "./get-payment-or-throw";
import { pageLocaleOf } from "./pay-url";
import { failedByExpiry, intentExpired, isExpiredIntent } from "./payment-expiry";
import { canTransition } from "./payment-state";
import type {
  PaymentCallHeaders,
  PaymentMethodCode,
  ProceedHandler,
  ProceedOutcome,
  ProceedPaymentBody,
  ProceedPrincipal,
} from "./proceed-payment.schema";
import { prepareCardProceed, proceedWithCard } from "./proceed-with-card";
import { proceedWithWallet } from "./proceed-with-wallet";

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
    input: ProceedPaymentBody;
    headers: PaymentCallHeaders;
    remember?: BeforeCommit<ProceedOutcome>;
  },
): Promise<ProceedOutcome> {
  const { principal, input, headers } = options;
  const now = serviceClock(principal.service).now();
  const gatewayKey = await getGatewayKey(db);
  const locale = pageLocaleOf(headers["x-locale"]);

  // Provider work a method needs before the payment is locked (never inside the transaction).
  const prepared = input.paymentMethodCode === "CARD_PROVIDER" ? await prepareCardProceed(db, { principal, paymentId: options.paymentId }) : null;
  const outcome = await db.transaction(async (tx) => {
    const payment = await getPaymentOrThrow(tx, { principal, paymentId: options.paymentId, lock: true });
    if (isExpiredIntent(payment, now) && canTransition(payment.state, "expire")) {
      // Committed although the call answers 410: the intent is over either way.
      await expirePayment(tx, { payment, now });
      return { expired: true as const };
    }
    if (failedByExpiry(payment) || (principal.mode === "merchant" && isExpiredIntent(payment, now))) throw intentExpired();
    if (!canTransition(payment.state, "require_action")) {
      throw new ApiError("invalid_state", `Only a created payment can be proceeded; this one is ${payment.state}.`);
    }
    if (!principal.service.countries.includes(payment.country)) {
      throw new ApiError("invalid_state", `${input.paymentMethodCode} is not enabled for ${payment.country}.`);
    }
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
      changes: { paymentMethodCode: input.paymentMethodCode, platform: headers["x-platform"], locale },
    });
    await options.remember?.(tx, result);
    return { expired: false as const, result };
  });
  if (outcome.expired) throw intentExpired();
  return outcome.result;
}
