import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { recordAuditEntry, type AuditActor } from "../../audit-log/record-audit-entry";
import { systemClock, type Clock } from "../../clock";
import { getConfig } from "../../config";
import { hashSecret, randomToken } from "../../crypto/secrets";
import type { Db } from "../../db/client";
import { ApiError } from "../../errors/api-error";
import { consoleInvitations, consoleUsers, services } from "../../db/schema";
import { consolePath } from "./console-paths";
import type { ConsoleRole } from "./roles";
import { normalizeEmail } from "./sign-in-lockout";

/** Contract 13: an invitation link works once, for 72 hours. */
export const INVITATION_LIFETIME_MS = 72 * 60 * 60 * 1000;

/** Without a locale: the link opens in the invitee's browser language (contract 10). */
export function invitationUrl(token: string): string {
  return `${getConfig().publicBaseUrl}${consolePath.invitation("en", token).replace(/^\/en/, "")}`;
}

/** A new invitation to one merchant with one role; the link (its token) is returned this once. */
export async function createInvitation(
  db: Db,
  options: { serviceId: string; email: string; role: ConsoleRole; actor: AuditActor | null; clock?: Clock },
): Promise<{ inviteUrl: string; token: string }> {
  const now = (options.clock ?? systemClock).now();
  const token = randomToken();
  const email = normalizeEmail(options.email);
  await db.transaction(async (tx) => {
    await tx.insert(consoleInvitations).values({
      serviceId: options.serviceId,
      email,
      role: options.role,
      tokenHash: hashSecret(token),
      invitedBy: options.actor?.userId ?? null,
      createdAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
    });
    if (options.actor)
      await recordAuditEntry(tx, {
        actor: options.actor,
        serviceId: options.serviceId,
        action: "invitation_created",
        target: `${email} (${options.role})`,
      });
  });
  return { inviteUrl: invitationUrl(token), token };
}

export interface OpenInvitation {
  id: string;
  serviceId: string;
  merchantName: string;
  email: string;
  role: ConsoleRole;
  /** The invited email already has an account: the person signs in instead of choosing a password. */
  existingUserId: string | null;
}

/** The invitation a link names, while it is unused and under 72 hours old; null otherwise. */
export async function findOpenInvitation(
  db: Db,
  token: string,
  clock: Clock = systemClock,
): Promise<OpenInvitation | null> {
  if (!token || token.length > 100) return null;
  const [row] = await db
    .select({ invitation: consoleInvitations, merchantName: services.name })
    .from(consoleInvitations)
    .innerJoin(services, eq(services.id, consoleInvitations.serviceId))
    .where(
      and(
        eq(consoleInvitations.tokenHash, hashSecret(token)),
        isNull(consoleInvitations.acceptedAt),
        gt(consoleInvitations.expiresAt, clock.now()),
      ),
    );
  if (!row) return null;
  const [user] = await db
    .select({ id: consoleUsers.id })
    .from(consoleUsers)
    .where(eq(consoleUsers.email, row.invitation.email));
  return {
    id: row.invitation.id,
    serviceId: row.invitation.serviceId,
    merchantName: row.merchantName,
    email: row.invitation.email,
    role: row.invitation.role,
    existingUserId: user?.id ?? null,
  };
}

/** Marks the invitation used; false when another request used it first or it expired meanwhile. */
export async function claimInvitation(db: Db, invitationId: string, now: Date): Promise<boolean> {
  const claimed = await db
    .update(consoleInvitations)
    .set({ acceptedAt: now })
    .where(
      and(
        eq(consoleInvitations.id, invitationId),
        isNull(consoleInvitations.acceptedAt),
        gt(consoleInvitations.expiresAt, now),
      ),
    )
    .returning({ id: consoleInvitations.id });
  return claimed.length > 0;
}

/**
 * An owner cancels an open invitation of its merchant: the link stops working at once (the row
 * goes, as a withdrawn invitation's does: lib/console/access/team.ts) and the audit log says who and
 * whom. Another merchant's, a used or an expired invitation is not found.
 */
export async function cancelInvitation(
  db: Db,
  options: { serviceId: string; invitationId: string; actor: AuditActor },
): Promise<void> {
  if (!UUID.test(options.invitationId)) throw new ApiError("not_found", "No such invitation.");
  await db.transaction(async (tx) => {
    const [canceled] = await tx
      .delete(consoleInvitations)
      .where(
        and(
          eq(consoleInvitations.id, options.invitationId),
          eq(consoleInvitations.serviceId, options.serviceId),
          isNull(consoleInvitations.acceptedAt),
          gt(consoleInvitations.expiresAt, sql`now()`),
        ),
      )
      .returning({ email: consoleInvitations.email, role: consoleInvitations.role });
    if (!canceled) throw new ApiError("not_found", "No such invitation.");
    await recordAuditEntry(tx, {
      actor: options.actor,
      serviceId: options.serviceId,
      action: "invitation_canceled",
      target: `${canceled.email} (${canceled.role})`,
    });
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
