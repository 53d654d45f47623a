import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../db/client";
import { paymentLinks } from "../db/schema";

// A link's payment has the actionId `<link id>:<attempt>:...` (start-link-payment.ts).
const LINK_ACTION_ID = /^(plink_[0-9A-HJKMNP-TV-Z]{26}):/;

/** The payment link a payment's actionId names, or null for a payment the merchant's own system created. */
export function paymentLinkIdOfActionId(actionId: string): string | null {
  return LINK_ACTION_ID.exec(actionId)?.[1] ?? null;
}

/**
 * The titles of the merchant's payment links the payments' actionIds name, by link id: the
 * console shows a link's title where the actionId (`plink_…:01M8…:350000:+213…`) says little to
 * a person. One query; another merchant's link id finds nothing.
 */
export async function paymentLinkTitles(
  db: Db,
  serviceId: string,
  actionIds: readonly string[],
): Promise<Map<string, string>> {
  const ids = [...new Set(actionIds.map(paymentLinkIdOfActionId).filter((id): id is string => id !== null))];
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: paymentLinks.id, title: paymentLinks.title })
    .from(paymentLinks)
    .where(and(eq(paymentLinks.serviceId, serviceId), inArray(paymentLinks.id, ids)));
  return new Map(rows.map((row) => [row.id, row.title]));
}
