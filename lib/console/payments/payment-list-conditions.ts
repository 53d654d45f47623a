import { and, eq, gte, inArray, isNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { payments } from "../../db/schema";
import type { MinorBoundByExponent } from "../../money/amount-bounds";
import { PAYMENT_METHOD_CODES } from "../../payment-methods/codes/payment-method-codes";
import { PAYMENT_METHODS } from "../../payment-methods/registry/payment-method-registry";
import { QR_INTENT_KIND, type ConsoleMethod, type PaymentListFilters } from "./payment-list-filters";
import { searchedPaymentIds } from "./payment-search";

/**
 * The WHERE of the payments list and of its export: always one service, then each filter. Every
 * column a filter reads is in payments_service_created_idx, so a filtered page is judged in the
 * index (drizzle/0010_console_payments_list_index.sql).
 */
export function paymentListConditions(serviceId: string, filters: PaymentListFilters): SQL {
  return and(
    eq(payments.serviceId, serviceId),
    filters.states.length > 0 ? inArray(payments.state, filters.states) : undefined,
    filters.method ? methodCondition(filters.method) : undefined,
    filters.currency ? eq(payments.currency, filters.currency) : undefined,
    filters.createdFrom ? gte(payments.createdAt, filters.createdFrom) : undefined,
    filters.createdBefore ? lt(payments.createdAt, filters.createdBefore) : undefined,
    filters.amountFrom || filters.amountTo ? amountCondition(filters.amountFrom, filters.amountTo) : undefined,
    filters.customerId ? eq(payments.customerId, filters.customerId) : undefined,
    filters.paymentLinkId ? linkCondition(filters.paymentLinkId) : undefined,
    filters.search
      ? sql`${payments.id} in (${searchedPaymentIds(serviceId, filters.search, filters.searchCountries ?? [])})`
      : undefined,
  )!;
}

/** One link's payments, written as payments_link_idx's expression and predicate so the index serves it. */
function linkCondition(paymentLinkId: string): SQL {
  return sql`(${payments.metaData} ? 'paymentLinkId'
    and (${payments.metaData} ->> 'paymentLinkId') = ${paymentLinkId})`;
}

function methodCondition(method: ConsoleMethod): SQL {
  // A QR intent is paid in the wallet app only, proceeded or not yet.
  if (method === QR_INTENT_KIND) return eq(payments.transactionType, "QR_CODE");
  // A prefix of payments_service_method_created_idx (transaction type, then method code). A QR
  // intent shows as qr_wallet, never as its method's kind (and no other method proceeds one):
  // saying so lets the index serve it.
  return and(isNull(payments.transactionType), inArray(payments.paymentMethodCode, codesShownAs(method)))!;
}

/** The method codes whose module names `kind` in the console (their ConsoleListing). */
function codesShownAs(kind: ConsoleMethod): string[] {
  return PAYMENT_METHOD_CODES.filter((code) => PAYMENT_METHODS[code].console.kind === kind);
}

/**
 * Minor units differ by the currency's exponent: one range per exponent group, both bounds in
 * the same branch of one OR, so each branch is a range of payments_service_amount_idx.
 */
function amountCondition(from: MinorBoundByExponent[] | null, to: MinorBoundByExponent[] | null): SQL {
  const groups = (from ?? to)!;
  const branches = groups.map((group, index) =>
    and(
      groups.length > 1 ? inArray(payments.currency, group.currencies) : undefined,
      from ? gte(payments.amountMinor, from[index]!.minor) : undefined,
      to ? lte(payments.amountMinor, to[index]!.minor) : undefined,
    )!,
  );
  return branches.length === 1 ? branches[0]! : or(...branches)!;
}
