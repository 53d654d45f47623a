import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { consoleMemberships, consoleMerchantPolicies, services } from "../db/schema";
import type { ConsoleRole } from "./roles";

export interface Membership {
  serviceId: string;
  merchantName: string;
  role: ConsoleRole;
  /** The merchant's policy (lib/console/two-step-policy.ts): its members must use two-step verification. */
  requiresTwoStep: boolean;
}

/** The merchants a user belongs to, for the switcher; a user sees no other. */
export async function listMemberships(db: Db, userId: string): Promise<Membership[]> {
  return db
    .select({
      serviceId: consoleMemberships.serviceId,
      merchantName: services.name,
      role: consoleMemberships.role,
      // Read here, in the same statement, for every console page's sign-in check (lib/auth/console-principal.ts).
      requiresTwoStep: sql<boolean>`coalesce(${consoleMerchantPolicies.requiresTwoStep}, false)`,
    })
    .from(consoleMemberships)
    .innerJoin(services, eq(services.id, consoleMemberships.serviceId))
    .leftJoin(consoleMerchantPolicies, eq(consoleMerchantPolicies.serviceId, consoleMemberships.serviceId))
    .where(eq(consoleMemberships.userId, userId))
    .orderBy(asc(services.name), asc(services.id));
}
