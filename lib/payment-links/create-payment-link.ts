import { ulid } from "ulid";
import { recordAuditEntry, type AuditActor } from "../audit-log/record-audit-entry";
import type { Clock } from "../clock";
import type { Db } from "../db/client";
import { paymentLinks } from "../db/schema";
import { ApiError, type ErrorDetail } from "../errors/api-error";
import { minorUnitsOrThrow } from "../money/amount.schema";
import type { CreatePaymentLinkBody, PaymentLinkView } from "./payment-link.schema";
import { toPaymentLinkView } from "./payment-link-view";
import { linkServiceOrThrow } from "./payment-link-record";

const NO_PAYMENTS_YET = { succeededCount: 0, succeededMinor: 0, takenCount: 0 };

/**
 * POST /api/v1/payment-links and the console's "Create" (contract 14): a link in a country the
 * service has enabled, expiring (if at all) in the future on the service's clock (`clock` the
 * base it adds its offset to). Amounts are kept in minor units. From the console, `actor` is the
 * member: the audit entry commits with the link or neither does.
 */
export async function createPaymentLink(
  db: Db,
  options: { serviceId: string; input: CreatePaymentLinkBody; clock?: Clock; actor?: AuditActor },
): Promise<PaymentLinkView> {
  const { input } = options;
  const service = { id: options.serviceId, ...(await linkServiceOrThrow(db, options.serviceId, options.clock)) };
  const now = service.clock.now();
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  const details: ErrorDetail[] = [];
  if (!service.countries.includes(input.countryCode)) {
    details.push({ path: "countryCode", message: `is not enabled for this service (${service.countries.join(", ")})` });
  }
  if (expiresAt && expiresAt.getTime() <= now.getTime())
    details.push({ path: "expiresAt", message: "must be in the future" });
  if (details.length > 0) throw new ApiError("validation_error", "The request is invalid.", details);

  const minor = (value: number | undefined, path: string) =>
    value === undefined ? null : minorUnitsOrThrow(value, input.currency, path);
  const link = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(paymentLinks)
      .values({
        id: `plink_${ulid(now.getTime())}`,
        serviceId: service.id,
        title: input.title,
        description: input.description || null,
        amountMinor: minor(input.amount, "amount"),
        minAmountMinor: minor(input.minAmount, "minAmount"),
        maxAmountMinor: minor(input.maxAmount, "maxAmount"),
        currency: input.currency,
        country: input.countryCode,
        captureMethod: input.captureMethod,
        reusable: input.reusable,
        expiresAt,
        locale: input.locale,
        metaData: input.metaData ?? null,
        createdAt: now,
      })
      .returning();
    if (options.actor)
      await recordAuditEntry(tx, {
        actor: options.actor,
        serviceId: service.id,
        action: "payment_link_created",
        target: row!.id,
      });
    return row!;
  });
  return toPaymentLinkView(link, NO_PAYMENTS_YET, now);
}
