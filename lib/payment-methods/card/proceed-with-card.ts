import { findSavedCard } from "../../cards/list-saved-cards";
import type { Db } from "../../db/client";
import { cardPayments } from "../../db/schema";
import {
  providerCallTimeoutMs,
  ProviderRefusedError,
  providerUnavailable,
  withTimeLimit,
} from "../../provider-operations";
import type { PaymentRow } from "../../db/payment-record";
import { ApiError } from "../../errors/api-error";
import { isTrustedReturnUrl } from "../../merchants/trusted-return-url";
import { logger } from "../../log";
import { cardProvider } from "../../providers/card-provider";
import { applyTransition } from "../../payments/core/apply-transition";
import { hostedPayUrl } from "../../payments/core/hosted-page-token";
import { STATUS_TEXT } from "../../payments/core/payment-messages";
import { checkStatusCode } from "../../payments/core/payment-state";
import type { ProviderPaymentIntent } from "../../providers/card/port";
import type { ProceedHandler, ProceedPrincipal } from "../contract/proceed-contract";

/** The card provider intent created before the proceed's transaction. */
export interface PreparedCardProceed {
  cardIntent: ProviderPaymentIntent;
}

/**
 * Before the proceed's transaction: creates the provider intent of a payment that can still be
 * proceeded (idempotent on the payment, so a retried proceed gets the same intent). Creating
 * an intent moves no money; a payment the transaction then refuses leaves an unused intent.
 * A provider that does not answer makes the proceed answer 503 provider_unavailable.
 */
export async function prepareCardProceed(
  db: Db,
  options: { principal: ProceedPrincipal; payment: PaymentRow },
): Promise<PreparedCardProceed | null> {
  const { payment } = options;
  if (payment.state !== "CREATED" || payment.transactionType === "QR_CODE") return null;
  const provider = cardProvider();
  try {
    const cardIntent = await withTimeLimit(
      provider.createPaymentIntent(db, {
        account: { serviceId: payment.serviceId, country: payment.country },
        publishableKey: options.principal.service.cardProviderPublishableKey,
        idempotencyKey: `payment:${payment.id}`,
        amountMinor: payment.amountMinor,
        currency: payment.currency,
        captureMethod: payment.captureMethod === "RESERVATION" ? "manual" : "automatic",
        customerRef: payment.customerId,
        metadata: { paymentId: payment.id },
      }),
      providerCallTimeoutMs(),
    );
    return { cardIntent };
  } catch (error) {
    if (error instanceof ProviderRefusedError)
      throw new ApiError("invalid_state", `The card provider refused the payment (${error.code}).`);
    logger.warn({ err: error, paymentId: payment.id }, "card provider intent could not be created");
    throw providerUnavailable();
  }
}

/**
 * CARD_PROVIDER: always REQUIRES_ACTION (12) with the hosted card page as payUrl. The provider
 * intent was created just before the transaction (prepareCardProceed), so the page finds it
 * ready; the card itself is entered (or a saved one chosen) on the page and confirmed with
 * the provider.
 */
export const proceedWithCard: ProceedHandler<PreparedCardProceed> = async (tx, context) => {
  const { payment, principal, input, now, changes, cause } = context;
  const service = principal.service;
  if (payment.transactionType === "QR_CODE") {
    throw new ApiError("invalid_state", "A QR intent is paid with WALLET_V2, not with a card.");
  }
  // Only a live saved card of the intent's own customer can be preselected; anything else is unknown here.
  const preselected = input.cardId
    ? await findSavedCard(tx, { serviceId: service.id, customerId: payment.customerId, cardId: input.cardId })
    : null;
  if (input.cardId && !preselected) throw new ApiError("not_found", "No such card.");

  const intent = context.prepared?.cardIntent;
  if (!intent)
    throw new ApiError("invalid_state", `Only a created payment can be proceeded; this one is ${payment.state}.`);
  await tx
    .insert(cardPayments)
    .values({ paymentId: payment.id, providerIntentId: intent.id, preselectedCardId: preselected?.id ?? null });

  const updated = await applyTransition(tx, {
    payment,
    event: "require_action",
    cause,
    now,
    changes: {
      ...changes,
      providerReference: intent.id,
      redirectUrl: trustedRedirectUrl(input.redirectUrl, service, payment.id),
      status: STATUS_TEXT.cardRequired,
    },
  });
  return {
    payment: updated,
    require3DS: true,
    statusCode: checkStatusCode(updated.state),
    status: updated.status,
    payUrl: hostedPayUrl({
      gatewayKey: context.gatewayKey,
      page: "card",
      paymentId: payment.id,
      locale: context.locale,
    }),
  };
};

/**
 * Contract 8: a redirectUrl whose origin is neither the service's redirect URL's nor
 * allow-listed is ignored (no open redirect), so only a trusted one is kept. The return
 * page applies the same rule again when it sends the buyer on.
 */
function trustedRedirectUrl(
  redirectUrl: string | undefined,
  service: { redirectUrl: string | null; allowedOrigins: string[] },
  paymentId: string,
): string | null {
  if (!redirectUrl) return null;
  const trusted = isTrustedReturnUrl(redirectUrl, {
    serviceRedirectUrl: service.redirectUrl,
    allowedOrigins: service.allowedOrigins,
  });
  if (!trusted) logger.warn({ paymentId }, "redirectUrl ignored: its origin is not allowed for the service");
  return trusted ? redirectUrl : null;
}
