import { asc, eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { consoleMemberships, services } from "../db/schema";
import type { ConsoleRole } from "./roles";

export interface Membership {
  serviceId: string;
  merchantName: string;
  role: ConsoleRole;
}

/** The merchants a user belongs to, for the switcher; a user sees no other. */
export async function listMemberships(db: Db, userId: string): Promise<Membership[]> {
  return db
    .select({ serviceId: consoleMemberships.serviceId, merchantName: services.name, role: consoleMemberships.role })
    .from(consoleMemberships)
    .innerJoin(services, eq(services.id, consoleMemberships.serviceId))
    .where(eq(consoleMemberships.userId, userId))
    .orderBy(asc(services.name), asc(services.id));
}
