import type { ClientPrincipal, BrowserPrincipal, UserPrincipal } from "../auth/principal";
import type { Db } from "../db/client";
import { ApiError } from "../errors/api-error";
import { alpha3Schema } from "../validation/common-headers";
import { getCurrentPaymentOrThrow } from "../payments/core/open-payment";
import { catalogRows } from "./list-available-payment-methods";
import { paymentMethodOf } from "./registry/payment-method-registry";
import { methodFunds } from "./registry/method-funds";

/**
 * Interface "Payment methods" 3: the card provider's publishable key of the caller's service
 * in a country where it offers cards. merchant_auth takes the country from its intent; the
 * other modes name it in x-country-code (alpha-3). No card method there: 404.
 */
export async function getCardProviderKey(
  db: Db,
  options: { principal: ClientPrincipal | BrowserPrincipal | UserPrincipal; countryHeader?: string },
): Promise<{ publicKey: string }> {
  const { principal } = options;
  let country: string;
  if (principal.mode === "merchant") {
    const payment = await getCurrentPaymentOrThrow(db, {
      principal,
      paymentId: principal.paymentId,
      methods: methodFunds,
    });
    country = payment.country;
  } else {
    const parsed = alpha3Schema.safeParse(options.countryHeader);
    if (!parsed.success) {
      throw new ApiError("validation_error", "The request is invalid.", [
        {
          path: "headers.x-country-code",
          message: options.countryHeader ? parsed.error.issues[0]!.message : "Required",
        },
      ]);
    }
    country = parsed.data;
  }
  const rows = await catalogRows(db, { serviceId: principal.service.id, country });
  // A card method is one whose buyer enters the card on the hosted card page.
  if (!rows.some((row) => paymentMethodOf(row.code)?.hostedStep === "card")) {
    throw new ApiError("not_found", `Card payments are not offered in ${country}.`);
  }
  return { publicKey: principal.service.cardProviderPublishableKey };
}
