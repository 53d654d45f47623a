import type { ClientPrincipal, MerchantPrincipal, UserPrincipal } from "../auth/principal";
import { serviceClock } from "../clock";
import type { Db } from "../db/client";
import { ApiError } from "../http/api-error";
import { alpha3Schema } from "../payments/create-payment-intent.schema";
import { getPaymentOrThrow } from "../payments/get-payment-or-throw";
import { intentExpired, isExpiredIntent } from "../payments/payment-expiry";
import { catalogRows } from "./list-available-payment-methods";

/**
 * Interface "Payment methods" 3: the card provider's publishable key of the caller's service
 * in a country where it offers cards. merchant_auth takes the country from its intent; the
 * other modes name it in x-country-code (alpha-3). No card method there: 404.
 */
export async function getCardProviderKey(
  db: Db,
  options: { principal: ClientPrincipal | MerchantPrincipal | UserPrincipal; countryHeader?: string },
): Promise<{ publicKey: string }> {
  const { principal } = options;
  let country: string;
  if (principal.mode === "merchant") {
    const payment = await getPaymentOrThrow(db, { principal, paymentId: principal.paymentId });
    if (isExpiredIntent(payment, serviceClock(principal.service).now())) throw intentExpired();
    country = payment.country;
  } else {
    const parsed = alpha3Schema.safeParse(options.countryHeader);
    if (!parsed.success) {
      throw new ApiError("validation_error", "The request is invalid.", [
        { path: "headers.x-country-code", message: options.countryHeader ? parsed.error.issues[0]!.message : "Required" },
      ]);
    }
    country = parsed.data;
  }
  const rows = await catalogRows(db, { serviceId: principal.service.id, country });
  if (!rows.some((row) => row.code === "CARD_PROVIDER")) {
    throw new ApiError("not_found", `Card payments are not offered in ${country}.`);
  }
  return { publicKey: principal.service.cardProviderPublishableKey };
}
