import type { Db } from "../../db/client";
import { redirectPayments } from "../../db/schema";
import type { PaymentRow } from "../../db/payment-record";
import { ApiError } from "../../errors/api-error";
import { isTrustedReturnUrl } from "../../merchants/trusted-return-url";
import { applyTransition } from "../../payments/core/apply-transition";
import { hostedPayUrl } from "../../payments/core/hosted-page-token";
import { STATUS_TEXT } from "../../payments/core/payment-messages";
import { checkStatusCode } from "../../payments/core/payment-state";
import type { PaymentMethodCode } from "../codes/payment-method-codes";
import type { ProceedHandler } from "../contract/proceed-contract";
import type { RedirectProvider } from "../contract/redirect-provider";

/**
 * Before the transaction: a method whose merchant has no provider credentials cannot take the
 * payment (production never enables it without them; the sandbox falls back on its simulator's).
 * Nothing is registered with the provider yet: that happens when the buyer presses Pay.
 */
export async function prepareRedirectProceed(
  db: Db,
  provider: RedirectProvider,
  code: PaymentMethodCode,
  payment: PaymentRow,
): Promise<null> {
  if (payment.state !== "CREATED") return null;
  if (!(await provider.account(db, payment.serviceId))) {
    throw new ApiError(
      "invalid_state",
      `${code} is not configured for this merchant: set its provider credentials first ` +
        "(npm run merchant -- update, or the console's Settings).",
    );
  }
  return null;
}

/**
 * Contract 15's proceed: 12 with the gateway's own page before the provider's as payUrl. A
 * RESERVATION on a provider that takes no pre-authorizations (SATIM) or an amount the provider cannot take
 * exactly is a validation_error naming the field; nothing is rounded.
 */
export function proceedWithRedirect(code: PaymentMethodCode, provider: RedirectProvider): ProceedHandler<null> {
  return async (tx, context) => {
    const { payment, principal, input, now, changes, cause } = context;
    if (payment.transactionType === "QR_CODE")
      throw new ApiError("invalid_state", `A QR intent is paid with WALLET_V2, not with ${code}.`);
    if (payment.captureMethod !== "DIRECT" && !provider.reservations) {
      throw new ApiError("validation_error", `${code} takes DIRECT payments only; this intent is a RESERVATION.`, [
        { path: "paymentMethodCode", message: `${code} cannot reserve funds; use a DIRECT intent or another method` },
      ]);
    }
    const refusal = provider.amountRefusal(payment.amountMinor, payment.currency);
    if (refusal)
      throw new ApiError("validation_error", `${code} cannot take this amount exactly: ${refusal}.`, [
        { path: "amount", message: refusal },
      ]);

    await tx
      .insert(redirectPayments)
      .values({ paymentId: payment.id, methodCode: code, createdAt: now })
      .onConflictDoNothing();
    const service = principal.service;
    const redirectUrl =
      input.redirectUrl &&
      isTrustedReturnUrl(input.redirectUrl, {
        serviceRedirectUrl: service.redirectUrl,
        allowedOrigins: service.allowedOrigins,
      })
        ? input.redirectUrl
        : null;
    const updated = await applyTransition(tx, {
      payment,
      event: "require_action",
      cause,
      now,
      changes: { ...changes, redirectUrl, status: STATUS_TEXT.redirectRequired },
    });
    return {
      payment: updated,
      require3DS: true,
      statusCode: checkStatusCode(updated.state),
      status: updated.status,
      payUrl: hostedPayUrl({
        gatewayKey: context.gatewayKey,
        page: "redirect",
        paymentId: payment.id,
        locale: context.locale,
      }),
    };
  };
}
