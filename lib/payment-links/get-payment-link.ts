import type { Clock } from "../clock";
import type { Db } from "../db/client";
import { ApiError } from "../errors/api-error";
import { findPaymentLink, linkPaymentTotals, linkServiceOrThrow, type PaymentLinkRow } from "./payment-link-record";
import { isPaymentLinkId, type PaymentLinkView } from "./payment-link.schema";
import { toPaymentLinkView } from "./payment-link-view";

export const linkNotFound = () => new ApiError("not_found", "No such payment link.");

/** One of the service's links; another service's (or a malformed id) is not found. */
export async function getPaymentLinkOrThrow(
  db: Db,
  options: { serviceId: string; id: string },
): Promise<PaymentLinkRow> {
  const link = isPaymentLinkId(options.id) ? await findPaymentLink(db, options) : null;
  if (!link) throw linkNotFound();
  return link;
}

/**
 * GET /api/v1/payment-links/:id (and the console), with its payments' totals; `clock` is the base the
 * service's offset is added to.
 */
export async function getPaymentLink(
  db: Db,
  options: { serviceId: string; id: string; clock?: Clock },
): Promise<PaymentLinkView> {
  const link = await getPaymentLinkOrThrow(db, options);
  const totals = await linkPaymentTotals(db, { serviceId: options.serviceId, linkIds: [link.id] });
  const { clock } = await linkServiceOrThrow(db, options.serviceId, options.clock);
  return toPaymentLinkView(link, totals.get(link.id)!, clock.now());
}
