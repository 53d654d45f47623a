import { and, desc, eq, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { consoleAuditLog, consoleMemberships } from "../db/schema";
import type { AuditAction } from "./audit-actions";

export const AUDIT_PAGE_SIZE = 50;

export interface AuditEntryView {
  id: number;
  at: Date;
  userEmail: string;
  action: string;
  target: string | null;
  ip: string | null;
}

/**
 * One merchant's log, newest first: its own entries, and the sign-ins and person-level changes
 * (password, two-step) of the people who are its members now.
 */
export async function listAuditEntries(
  db: Db,
  options: { serviceId: string; userEmail?: string; action?: AuditAction; before?: number },
): Promise<{ entries: AuditEntryView[]; hasMore: boolean }> {
  const members = db
    .select({ userId: consoleMemberships.userId })
    .from(consoleMemberships)
    .where(eq(consoleMemberships.serviceId, options.serviceId));
  const filters: SQL[] = [
    or(
      eq(consoleAuditLog.serviceId, options.serviceId),
      and(isNull(consoleAuditLog.serviceId), inArray(consoleAuditLog.userId, members)),
    )!,
  ];
  if (options.userEmail) filters.push(eq(sql`lower(${consoleAuditLog.userEmail})`, options.userEmail.toLowerCase()));
  if (options.action) filters.push(eq(consoleAuditLog.action, options.action));
  if (options.before) filters.push(lt(consoleAuditLog.id, options.before));
  const rows = await db
    .select({
      id: consoleAuditLog.id,
      at: consoleAuditLog.at,
      userEmail: consoleAuditLog.userEmail,
      action: consoleAuditLog.action,
      target: consoleAuditLog.target,
      ip: consoleAuditLog.ip,
    })
    .from(consoleAuditLog)
    .where(and(...filters))
    .orderBy(desc(consoleAuditLog.id))
    .limit(AUDIT_PAGE_SIZE + 1);
  return { entries: rows.slice(0, AUDIT_PAGE_SIZE), hasMore: rows.length > AUDIT_PAGE_SIZE };
}
