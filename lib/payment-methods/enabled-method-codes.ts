import type { Db } from "../db/client";
import { catalogRows } from "./list-available-payment-methods";
import { methodEnabledGiven } from "./method-enabled";
import { isPaymentMethodCode, PAYMENT_METHOD_CODES, type PaymentMethodCode } from "./codes/payment-method-codes";

/**
 * The methods a buyer may choose for a payment in `country`, in the catalog's display order:
 * the one rule of method-enabled.ts applied to each enabled catalog row (the hosted checkout
 * and payment link pages offer exactly these, and the proceed accepts exactly these).
 */
export async function enabledMethodCodes(
  db: Db,
  options: { service: { id: string; countries: string[] }; country: string },
): Promise<PaymentMethodCode[]> {
  const rows = await catalogRows(db, { serviceId: options.service.id, country: options.country });
  // Every row read is enabled in the catalog; the rule adds the service's own countries.
  const enabled = (code: string) =>
    methodEnabledGiven({ service: options.service, country: options.country, inCatalog: true }) &&
    isPaymentMethodCode(code);
  return rows.map((row) => row.code).filter(enabled) as PaymentMethodCode[];
}
