import { eq } from "drizzle-orm";
import { BUYER_CAUSE } from "../core/state-change-cause";
import { clientSecretFor } from "../../auth/client-secret";
import type { BrowserPrincipal } from "../../auth/principal";
import { serviceColumns } from "../../auth/service-columns";
import { serviceClock } from "../../clock";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { apiCredentials, payments, services } from "../../db/schema";
import type { Locale } from "../../i18n/routing";
import { logger } from "../../log";
import { enabledMethodCodes } from "../../payment-methods/enabled-method-codes";
import { isPaymentMethodCode, type PaymentMethodCode } from "../../payment-methods/codes/payment-method-codes";
import type { HostedStepPage } from "../../payment-methods/contract/payment-method-module";
import { PAYMENT_METHODS, paymentMethodOf } from "../../payment-methods/registry/payment-method-registry";
import { showsAsExpired } from "../core/payment-expiry";
import { proceedPayment } from "../operations/proceed-payment";
import { proceedPaymentBody, type ProceedOutcome } from "../../payment-methods/contract/proceed-contract";
import { hasHostedToken } from "../core/hosted-access";

/**
 * The hosted page a payment proceeded with `code` sends the buyer to when it asks for the buyer's action
 * (12); null: a code no method has.
 */
export function stepPageOf(code: string | null): HostedStepPage | null {
  return paymentMethodOf(code)?.hostedStep ?? null;
}

/** Where the buyer goes after the checkout proceeded the payment. */
export type CheckoutNextPage = "otp" | "card" | "redirect" | "qr" | "return";

export type CheckoutProceed =
  | { outcome: "invalid_link" }
  /** Not CREATED any more, or past its lifetime: the checkout page shows where it stands. */
  | { outcome: "not_open" }
  | { outcome: "no_method_chosen" }
  | { outcome: "method_unavailable" }
  /** The proceed was refused or failed (a provider away, a change meanwhile); logged. */
  | { outcome: "error" }
  | { outcome: "proceeded"; next: CheckoutNextPage };

/**
 * The hosted checkout's "Continue" (contract 14): the buyer's browser proceeds the intent with
 * the method chosen, through the API's own proceed (proceedPayment) as merchant_auth would:
 * the intent's client secret, under the service's publishable key. Same rules, same state
 * changes, same notifications. `returnUrl` becomes the card's redirectUrl (proceed keeps it
 * only when its origin is trusted; the wallet ignores it).
 */
export async function proceedFromCheckout(
  db: Db,
  options: { paymentId: string; token: string; code: string | undefined; locale: Locale; returnUrl?: string },
): Promise<CheckoutProceed> {
  const { paymentId, code } = options;
  if (!(await hasHostedToken(db, paymentId, options.token))) return { outcome: "invalid_link" };
  const [row] = await db
    .select({ payment: payments, service: serviceColumns, publishableKey: apiCredentials.publishableKey })
    .from(payments)
    .innerJoin(services, eq(services.id, payments.serviceId))
    .leftJoin(apiCredentials, eq(apiCredentials.serviceId, services.id))
    .where(eq(payments.id, paymentId))
    .limit(1);
  if (!row) return { outcome: "invalid_link" };
  const { payment, service } = row;
  if (payment.state !== "CREATED" || showsAsExpired(payment, serviceClock(service).now()))
    return { outcome: "not_open" };
  if (!code) return { outcome: "no_method_chosen" };
  if (
    !isPaymentMethodCode(code) ||
    !(await enabledMethodCodes(db, { service, country: payment.country })).includes(code)
  ) {
    return { outcome: "method_unavailable" };
  }

  const gatewayKey = await getGatewayKey(db);
  const principal: BrowserPrincipal = {
    mode: "merchant",
    service,
    paymentId,
    publishableKey: row.publishableKey ?? "",
    clientSecret: clientSecretFor(gatewayKey, paymentId),
  };
  const withReturn = proceedPaymentBody.safeParse({ paymentMethodCode: code, redirectUrl: options.returnUrl });
  const input = withReturn.success ? withReturn.data : { paymentMethodCode: code };
  try {
    const outcome = await proceedPayment(db, {
      principal,
      paymentId,
      // The checkout page proceeds for the buyer (contract 14).
      cause: BUYER_CAUSE,
      input,
      headers: { "x-platform": "WEB", "x-locale": options.locale },
    });
    return { outcome: "proceeded", next: nextPage(code, outcome) };
  } catch (error) {
    logger.warn({ err: error, paymentId, code }, "checkout proceed refused or failed");
    return { outcome: "error" };
  }
}

function nextPage(code: PaymentMethodCode, outcome: ProceedOutcome): CheckoutNextPage {
  if (outcome.qrPageUrl) return "qr";
  return outcome.require3DS ? PAYMENT_METHODS[code].hostedStep : "return";
}
