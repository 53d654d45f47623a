import { eq, sql } from "drizzle-orm";
import { serviceClock } from "../clock";
import type { Db } from "../db/client";
import { services } from "../db/schema";

/** Moves one service's sandbox clock forward; every time rule of the service reads it. */
export async function advanceServiceClock(db: Db, options: { serviceId: string; advanceSeconds: number }) {
  const [row] = await db
    .update(services)
    .set({ clockOffsetSeconds: sql`${services.clockOffsetSeconds} + ${options.advanceSeconds}` })
    .where(eq(services.id, options.serviceId))
    .returning({ clockOffsetSeconds: services.clockOffsetSeconds });
  if (!row) throw new Error(`service ${options.serviceId} vanished`);
  return { clockOffsetSeconds: row.clockOffsetSeconds, now: serviceClock(row).now().toISOString() };
}

/** Brings one service's sandbox clock back to real time. */
export async function resetServiceClock(db: Db, options: { serviceId: string }) {
  const [row] = await db
    .update(services)
    .set({ clockOffsetSeconds: 0 })
    .where(eq(services.id, options.serviceId))
    .returning({ clockOffsetSeconds: services.clockOffsetSeconds });
  if (!row) throw new Error(`service ${options.serviceId} vanished`);
  return { clockOffsetSeconds: row.clockOffsetSeconds, now: serviceClock(row).now().toISOString() };
}
