import { eq } from "drizzle-orm";
import { serviceClock } from "../clock";
import type { Db } from "../db/client";
import { paymentLinks, services } from "../db/schema";
import { enabledMethodCodes } from "../payment-methods/enabled-method-codes";
import type { PaymentMethodCode } from "../payment-methods/codes/payment-method-codes";
import { linkClosure, linkPaymentTotals, type LinkClosure, type PaymentLinkRow } from "./payment-link-record";
import { isPaymentLinkId } from "./payment-link.schema";

export interface LinkPage {
  link: PaymentLinkRow;
  merchantName: string;
  /** Why the link takes no payment now (its page answers 410), or null. */
  closure: LinkClosure | null;
  /** The methods a buyer may choose in the link's country. */
  methods: PaymentMethodCode[];
}

/** What a payment link's public page shows (anyone with the link may see it); null for no such link. */
export async function getLinkPage(db: Db, linkId: string): Promise<LinkPage | null> {
  if (!isPaymentLinkId(linkId)) return null;
  const [row] = await db
    .select({
      link: paymentLinks,
      merchantName: services.name,
      countries: services.countries,
      clockOffsetSeconds: services.clockOffsetSeconds,
    })
    .from(paymentLinks)
    .innerJoin(services, eq(services.id, paymentLinks.serviceId))
    .where(eq(paymentLinks.id, linkId));
  if (!row) return null;
  const { link } = row;
  const totals = (await linkPaymentTotals(db, { serviceId: link.serviceId, linkIds: [link.id] })).get(link.id)!;
  const closure = linkClosure(link, totals, serviceClock(row).now());
  const methods = closure
    ? []
    : await enabledMethodCodes(db, {
        service: { id: link.serviceId, countries: row.countries },
        country: link.country,
      });
  return { link, merchantName: row.merchantName, closure, methods };
}
