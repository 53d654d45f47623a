import { sql, type SQL } from "drizzle-orm";
import type { Db } from "../../db/client";
import { sqlRows } from "../../db/sql-rows";
import { merchantTimeZone } from "../../merchants/merchant-time-zone";
import type { ConsoleRole } from "./roles";

export interface Membership {
  serviceId: string;
  merchantName: string;
  role: ConsoleRole;
  /** The merchant's policy (lib/console/access/two-step-policy.ts): its members must use two-step verification. */
  requiresTwoStep: boolean;
  /** The merchant's countries (ISO alpha-3), first the first: searches read a phone in their national form. */
  countries: string[];
  /** The IANA zone the console shows this merchant's times in (lib/merchants/merchant-time-zone.ts). */
  timeZone: string;
}

/**
 * A user's memberships as one JSON text value (a scalar subquery), switcher order: by merchant
 * name, then id. A fragment, so the console's sign-in check reads them in its session statement
 * (lib/console/access/console-sessions.ts) with the merchant's two-step policy, no statement of their own.
 */
export function membershipsOfUserSql(userId: SQL): SQL {
  return sql`(SELECT coalesce(json_agg(json_build_object(
      'serviceId', m.service_id, 'merchantName', s.name, 'role', m.role,
      'requiresTwoStep', coalesce(p.requires_two_step, false),
      'countries', s.countries, 'timeZone', s.time_zone
    ) ORDER BY s.name, s.id), '[]')::text
    FROM console_memberships m
    JOIN services s ON s.id = m.service_id
    LEFT JOIN console_merchant_policies p ON p.service_id = m.service_id
    WHERE m.user_id = ${userId})`;
}

export function parseMemberships(text: string): Membership[] {
  return (JSON.parse(text) as (Omit<Membership, "timeZone"> & { timeZone: string | null })[]).map((membership) => ({
    ...membership,
    timeZone: merchantTimeZone(membership),
  }));
}

/** The merchants a user belongs to, for the switcher; a user sees no other. */
export async function listMemberships(db: Db, userId: string): Promise<Membership[]> {
  const [row] = sqlRows<{ memberships: string }>(
    await db.execute(sql`SELECT ${membershipsOfUserSql(sql`${userId}::uuid`)} AS memberships`),
  );
  return parseMemberships(row!.memberships);
}
