import { and, asc, eq, gt, isNull, or, sql } from "drizzle-orm";
import { recordAuditEntry, type AuditActor } from "../../audit-log/record-audit-entry";
import type { Db } from "../../db/client";
import { consoleInvitations, consoleMemberships, consoleUsers } from "../../db/schema";
import { ApiError } from "../../errors/api-error";
import { isConsoleRole, type ConsoleRole } from "./roles";

export interface TeamMember {
  userId: string;
  email: string;
  name: string;
  role: ConsoleRole;
  twoStepOn: boolean;
}

export async function listTeam(
  db: Db,
  serviceId: string,
): Promise<{
  members: TeamMember[];
  invitations: { id: string; email: string; role: ConsoleRole; expiresAt: Date }[];
}> {
  const members = await db
    .select({
      userId: consoleUsers.id,
      email: consoleUsers.email,
      name: consoleUsers.name,
      role: consoleMemberships.role,
      twoStepOn: sql<boolean>`${consoleUsers.totpSecretEncrypted} is not null`,
    })
    .from(consoleMemberships)
    .innerJoin(consoleUsers, eq(consoleUsers.id, consoleMemberships.userId))
    .where(eq(consoleMemberships.serviceId, serviceId))
    .orderBy(asc(consoleUsers.email));
  const invitations = await db
    .select({
      id: consoleInvitations.id,
      email: consoleInvitations.email,
      role: consoleInvitations.role,
      expiresAt: consoleInvitations.expiresAt,
    })
    .from(consoleInvitations)
    .where(
      and(
        eq(consoleInvitations.serviceId, serviceId),
        isNull(consoleInvitations.acceptedAt),
        gt(consoleInvitations.expiresAt, sql`now()`),
      ),
    )
    .orderBy(asc(consoleInvitations.createdAt));
  return { members, invitations };
}

/**
 * The merchant's memberships, locked: role changes and removals read the owner count under
 * this lock, so two owners demoting each other at once cannot leave none.
 */
async function lockedMemberships(tx: Db, serviceId: string) {
  return tx
    .select({ userId: consoleMemberships.userId, role: consoleMemberships.role, email: consoleUsers.email })
    .from(consoleMemberships)
    .innerJoin(consoleUsers, eq(consoleUsers.id, consoleMemberships.userId))
    .where(eq(consoleMemberships.serviceId, serviceId))
    .for("update", { of: consoleMemberships });
}

/**
 * An invitation carries the authority of the owner who sent it: once that person is no longer
 * an owner of the merchant (removed or demoted), the open invitations they sent are withdrawn,
 * so nobody they invited (their own second address included) joins after they lost the right to
 * invite. A removed member's own open invitations go too: removal is not undone by a link.
 */
async function withdrawInvitations(tx: Db, options: { serviceId: string; sentBy: string; addressedTo?: string }) {
  const sentOrAddressed = options.addressedTo
    ? or(eq(consoleInvitations.invitedBy, options.sentBy), eq(consoleInvitations.email, options.addressedTo))
    : eq(consoleInvitations.invitedBy, options.sentBy);
  await tx
    .delete(consoleInvitations)
    .where(
      and(eq(consoleInvitations.serviceId, options.serviceId), isNull(consoleInvitations.acceptedAt), sentOrAddressed),
    );
}

export type TeamChangeResult = { outcome: "done" } | { outcome: "last_owner" };

/** Contract 13: a merchant always keeps at least one owner. Another merchant's member is not found. */
export async function changeMemberRole(
  db: Db,
  options: { actor: AuditActor; serviceId: string; userId: string; role: string },
): Promise<TeamChangeResult> {
  if (!isConsoleRole(options.role)) throw new ApiError("validation_error", "Unknown role.");
  const role = options.role;
  return db.transaction(async (tx) => {
    const members = await lockedMemberships(tx, options.serviceId);
    const member = members.find((candidate) => candidate.userId === options.userId);
    if (!member) throw new ApiError("not_found", "No such member.");
    if (
      member.role === "owner" &&
      role !== "owner" &&
      members.filter((candidate) => candidate.role === "owner").length === 1
    ) {
      return { outcome: "last_owner" } as const;
    }
    await tx
      .update(consoleMemberships)
      .set({ role })
      .where(and(eq(consoleMemberships.serviceId, options.serviceId), eq(consoleMemberships.userId, options.userId)));
    if (member.role === "owner" && role !== "owner")
      await withdrawInvitations(tx, { serviceId: options.serviceId, sentBy: member.userId });
    await recordAuditEntry(tx, {
      actor: options.actor,
      serviceId: options.serviceId,
      action: "role_changed",
      target: `${member.email}: ${member.role} → ${role}`,
    });
    return { outcome: "done" } as const;
  });
}

export async function removeMember(
  db: Db,
  options: { actor: AuditActor; serviceId: string; userId: string },
): Promise<TeamChangeResult> {
  return db.transaction(async (tx) => {
    const members = await lockedMemberships(tx, options.serviceId);
    const member = members.find((candidate) => candidate.userId === options.userId);
    if (!member) throw new ApiError("not_found", "No such member.");
    if (member.role === "owner" && members.filter((candidate) => candidate.role === "owner").length === 1)
      return { outcome: "last_owner" } as const;
    await tx
      .delete(consoleMemberships)
      .where(and(eq(consoleMemberships.serviceId, options.serviceId), eq(consoleMemberships.userId, options.userId)));
    await withdrawInvitations(tx, { serviceId: options.serviceId, sentBy: member.userId, addressedTo: member.email });
    await recordAuditEntry(tx, {
      actor: options.actor,
      serviceId: options.serviceId,
      action: "member_removed",
      target: member.email,
    });
    return { outcome: "done" } as const;
  });
}
