import { and, desc, eq, lt, or, type SQL } from "drizzle-orm";
import type { Clock } from "../clock";
import type { Db } from "../db/client";
import { paymentLinks } from "../db/schema";
import { ApiError } from "../errors/api-error";
import { linkPaymentTotals, linkServiceOrThrow } from "./payment-link-record";
import type { ListPaymentLinksQuery, PaymentLinkView } from "./payment-link.schema";
import { toPaymentLinkView } from "./payment-link-view";

/**
 * GET /api/v1/payment-links (and the console's list): the service's links, newest first, a page of `limit` after the
 * `startingAfter` link, each with its payments count and succeeded total. Another service's
 * id as a cursor is refused like an unknown one.
 */
export async function listPaymentLinks(
  db: Db,
  options: { serviceId: string; clock?: Clock } & ListPaymentLinksQuery,
): Promise<{ links: PaymentLinkView[]; hasMore: boolean }> {
  const filters: SQL[] = [eq(paymentLinks.serviceId, options.serviceId)];
  if (options.startingAfter) {
    const [cursor] = await db
      .select({ createdAt: paymentLinks.createdAt })
      .from(paymentLinks)
      .where(and(eq(paymentLinks.id, options.startingAfter), eq(paymentLinks.serviceId, options.serviceId)));
    if (!cursor) {
      throw new ApiError("validation_error", "The request is invalid.", [
        { path: "query.startingAfter", message: "must be the id of one of this service's payment links" },
      ]);
    }
    filters.push(
      or(
        lt(paymentLinks.createdAt, cursor.createdAt),
        and(eq(paymentLinks.createdAt, cursor.createdAt), lt(paymentLinks.id, options.startingAfter)),
      )!,
    );
  }
  const rows = await db
    .select()
    .from(paymentLinks)
    .where(and(...filters))
    .orderBy(desc(paymentLinks.createdAt), desc(paymentLinks.id))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const totals = await linkPaymentTotals(db, { serviceId: options.serviceId, linkIds: page.map((link) => link.id) });
  const now = (await linkServiceOrThrow(db, options.serviceId, options.clock)).clock.now();
  return {
    links: page.map((link) => toPaymentLinkView(link, totals.get(link.id)!, now)),
    hasMore: rows.length > options.limit,
  };
}
