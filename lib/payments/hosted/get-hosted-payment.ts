import { eq } from "drizzle-orm";
import { serviceClock } from "../../clock";
import type { Db } from "../../db/client";
import { payments, services } from "../../db/schema";
import { fromMinorUnits } from "../../money/amount";
import { paymentMethodOf } from "../../payment-methods/registry/payment-method-registry";
import { connectedWallet } from "../../wallet-connection/wallet-connection";
import { showsAsExpired } from "../core/payment-expiry";
import { hasHostedToken } from "../core/hosted-access";
import { checkStatusCode } from "../core/payment-state";
import type { HostedPaymentView } from "../../payment-methods/contract/hosted-payment-view";

export type { HostedPaymentView };

/** What a hosted page may show about a payment; null for a wrong token or an unknown payment. */
export async function getHostedPayment(
  db: Db,
  options: { paymentId: string; token: string },
): Promise<HostedPaymentView | null> {
  const { paymentId, token } = options;
  if (!(await hasHostedToken(db, paymentId, token))) return null;

  const [row] = await db
    .select({
      payment: payments,
      merchantName: services.name,
      serviceCountries: services.countries,
      serviceRedirectUrl: services.redirectUrl,
      allowedOrigins: services.allowedOrigins,
      termsUrl: services.termsUrl,
      clockOffsetSeconds: services.clockOffsetSeconds,
    })
    .from(payments)
    .innerJoin(services, eq(services.id, payments.serviceId))
    .where(eq(payments.id, paymentId));
  if (!row) return null;
  const { payment } = row;
  const now = serviceClock(row).now();
  // The wallet keeps the challenge of a payment whose method asks for an OTP (a QR intent asks
  // none); a page shown while it does not answer shows no attempt count.
  const challenge =
    paymentMethodOf(payment.paymentMethodCode)?.hostedStep === "otp" && payment.transactionType !== "QR_CODE"
      ? await (await connectedWallet({ now })).otpChallenge(paymentId).catch(() => null)
      : null;

  return {
    paymentId: payment.id,
    serviceId: payment.serviceId,
    serviceCountries: row.serviceCountries,
    country: payment.country,
    merchantName: row.merchantName,
    amount: fromMinorUnits(payment.amountMinor, payment.currency),
    amountMinor: payment.amountMinor,
    currency: payment.currency,
    state: payment.state,
    statusCode: checkStatusCode(payment.state),
    failureReason: payment.failureReason,
    captureMethod: payment.captureMethod,
    paymentMethodCode: payment.paymentMethodCode,
    transactionType: payment.transactionType,
    otp: challenge
      ? {
          attemptsLeft: challenge.attemptsLeft,
          resendAvailableAt: challenge.resendAvailableAt,
          expiresAt: challenge.expiresAt,
        }
      : null,
    expired: showsAsExpired(payment, now),
    serviceRedirectUrl: row.serviceRedirectUrl,
    allowedOrigins: row.allowedOrigins,
    redirectUrl: payment.redirectUrl,
    locale: payment.locale,
    termsUrl: row.termsUrl,
  };
}
