import type { Db } from "../../db/client";
import { listSavedCards } from "../../cards/list-saved-cards";
import { getCustomerOrThrow } from "../../customers/get-customer";
import { listPayments, type PaymentListPage } from "../payments/list-payments";
import { NO_FILTERS } from "../payments/payment-list-filters";
import type { PaymentCursor } from "../payments/payment-cursor";

export interface CustomerDetail {
  customer: { id: string; name: string; phone: string; email: string | null; isActive: boolean; createdAt: Date };
  /** Its payments, newest first, by keyset as the payments list. */
  payments: PaymentListPage;
  /** Its live saved cards: brand, last 4, expiry (null when the provider gave none). */
  cards: {
    id: string;
    brand: string;
    last4: string;
    expMonth: number | null;
    expYear: number | null;
    lastUsedAt: Date;
  }[];
}

/**
 * The console's customer page: another service's customer (or none) is ApiError not_found,
 * which the page answers with 404.
 */
export async function getCustomerDetail(
  db: Db,
  options: { serviceId: string; customerId: string; after?: PaymentCursor | null },
): Promise<CustomerDetail> {
  const customer = await getCustomerOrThrow(db, { id: options.customerId, serviceId: options.serviceId });
  const [payments, cards] = await Promise.all([
    listPayments(db, {
      serviceId: options.serviceId,
      query: {
        filters: { ...NO_FILTERS, customerId: customer.id },
        cursor: options.after ? { direction: "after", at: options.after } : null,
      },
    }),
    listSavedCards(db, { serviceId: options.serviceId, customerId: customer.id }),
  ]);
  return {
    customer: {
      id: customer.id,
      name: customer.name,
      phone: customer.phone,
      email: customer.email,
      isActive: customer.isActive,
      createdAt: customer.createdAt,
    },
    payments,
    cards: cards.map((card) => ({
      id: card.id,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      lastUsedAt: card.lastUsedAt,
    })),
  };
}
