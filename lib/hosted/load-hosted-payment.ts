import { eq } from "drizzle-orm";
import { serviceClock } from "../clock";
import type { Db } from "../db/client";
import { payments, services } from "../db/schema";
import { getHostedPayment, type HostedPaymentView } from "../payments/hosted/get-hosted-payment";

export interface LoadedHostedPayment {
  payment: HostedPaymentView;
  /** Now on the payment's service clock: the sandbox clock may run ahead of the wall clock. */
  now: Date;
}

/**
 * What a hosted page renders from: the payment as its token shows it, and the time its
 * countdowns run on. Null for a missing or wrong token and an unknown payment alike.
 */
export async function loadHostedPayment(
  db: Db,
  options: { paymentId: string; token: string | undefined },
): Promise<LoadedHostedPayment | null> {
  if (!options.token) return null;
  const payment = await getHostedPayment(db, { paymentId: options.paymentId, token: options.token });
  if (!payment) return null;
  return { payment, now: await serviceNow(db, payment.paymentId) };
}

// The view leaves out the service's clock offset; one indexed read gets it.
async function serviceNow(db: Db, paymentId: string): Promise<Date> {
  const [service] = await db
    .select({ clockOffsetSeconds: services.clockOffsetSeconds })
    .from(payments)
    .innerJoin(services, eq(services.id, payments.serviceId))
    .where(eq(payments.id, paymentId));
  return serviceClock(service ?? { clockOffsetSeconds: 0 }).now();
}
