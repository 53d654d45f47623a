import type { ClientPrincipal, BrowserPrincipal, UserPrincipal } from "../../auth/principal";
import type { Db } from "../../db/client";
import { getCurrentPaymentOrThrow } from "../core/open-payment";
import { methodFunds } from "../../payment-methods/registry/method-funds";
import type { PaymentRow } from "../../db/payment-record";

/**
 * The payment's state for check: read by the auth statement itself (`alreadyRead`), else one
 * prepared read besides auth (the Redis limit store). An open intent found past
 * its grace is failed on the spot (as the sweep would), so check never reports a payment that
 * can no longer complete as pending; merchant_auth then answers 410 (contract section 4).
 */
export function checkPayment(
  db: Db,
  options: {
    principal: ClientPrincipal | BrowserPrincipal | UserPrincipal;
    paymentId: string;
    alreadyRead?: PaymentRow | null;
  },
): Promise<PaymentRow> {
  return getCurrentPaymentOrThrow(db, { ...options, methods: methodFunds });
}
