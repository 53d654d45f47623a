import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { payments, services } from "../../db/schema";
import { isPaymentId } from "../../db/payment-record";

/** The name the buyer knows the merchant of a payment by (the 3DS page shows whom they pay). */
export async function getMerchantName(db: Db, paymentId: string): Promise<string | null> {
  if (!isPaymentId(paymentId)) return null;
  const [row] = await db
    .select({ name: services.name })
    .from(payments)
    .innerJoin(services, eq(services.id, payments.serviceId))
    .where(eq(payments.id, paymentId));
  return row?.name ?? null;
}
