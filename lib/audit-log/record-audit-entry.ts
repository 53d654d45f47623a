import type { Db } from "../db/client";
import { consoleAuditLog } from "../db/schema";
import type { AuditAction } from "./audit-actions";

/** Who acted, for the log: the console user (or the email typed, for a failed sign-in) and where from. */
export interface AuditActor {
  userId: string | null;
  email: string;
  ip: string | null;
}

export interface AuditEntry {
  actor: AuditActor;
  /** The merchant (service) acted on; null for what concerns the person only (sign-in, password). */
  serviceId: string | null;
  action: AuditAction;
  /** What was acted on, in words an owner reads: an email, a payment id, a key's name. */
  target?: string | null;
  at?: Date;
}

/**
 * Appends one entry. Call it with the transaction that makes the change, so the entry commits
 * with it or not at all (a refund's entry commits with the refund). The table refuses UPDATE
 * and DELETE (migration console_audit_log_append_only).
 */
export async function recordAuditEntry(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(consoleAuditLog).values({
    userId: entry.actor.userId,
    userEmail: entry.actor.email,
    serviceId: entry.serviceId,
    action: entry.action,
    target: entry.target ?? null,
    ip: entry.actor.ip,
    ...(entry.at ? { at: entry.at } : {}),
  });
}
