import { sql, type SQL } from "drizzle-orm";
import { isPaymentId } from "../../db/payment-record";
import { phoneNumbersOf } from "../../geo/typed-phone";

/**
 * What the one search box of the payments list may mean (contract 13): a paymentId, an
 * actionId, the customer's phone in any form a person types it (lib/geo/typed-phone.ts: the
 * national form of the merchant's `countries` too) or a card's last 4. Every reading that fits
 * is tried; each is an exact, indexed lookup.
 */
export interface SearchTerms {
  paymentId: string | null;
  actionId: string;
  /** The E.164 numbers the text may be; empty when it is no phone. */
  phones: string[];
  last4: string | null;
}

export function searchTermsOf(text: string, countries: readonly string[] = []): SearchTerms {
  const term = text.trim();
  return {
    paymentId: isPaymentId(term) ? term.toLowerCase() : null,
    actionId: term,
    phones: phoneNumbersOf(term, countries),
    last4: /^\d{4}$/.test(term) ? term : null,
  };
}

/**
 * SQL: the ids of the service's payments the search finds, as one union of index lookups
 * (payments by id and by (service, actionId), the customer by (service, phone) then its
 * payments, card payments by last 4 then their payment by id). Every branch is scoped to the
 * service itself (contract 13, isolation), not only by the caller's condition on the rows.
 */
export function searchedPaymentIds(serviceId: string, text: string, countries: readonly string[] = []): SQL {
  const terms = searchTermsOf(text, countries);
  const branches: SQL[] = [
    sql`select id from payments where service_id = ${serviceId} and action_id = ${terms.actionId}`,
  ];
  if (terms.paymentId)
    branches.push(sql`select id from payments where id = ${terms.paymentId} and service_id = ${serviceId}`);
  if (terms.phones.length > 0) {
    const phones = sql.join(
      terms.phones.map((phone) => sql`${phone}`),
      sql`, `,
    );
    branches.push(
      sql`select p.id from customers c join payments p on p.customer_id = c.id
        where c.service_id = ${serviceId} and c.phone in (${phones})`,
    );
  }
  if (terms.last4) {
    // A last 4 is shared by many merchants' cards: the card rows found by it are joined to their
    // payment and kept only where that payment is the service's.
    branches.push(
      sql`select p.id from card_payments cp join payments p on p.id = cp.payment_id
        where cp.card_last4 = ${terms.last4} and p.service_id = ${serviceId}`,
    );
  }
  return sql.join(branches, sql` union all `);
}
