import { and, eq } from "drizzle-orm";
import { recordAuditEntry, type AuditActor } from "../../audit-log/record-audit-entry";
import type { Db } from "../../db/client";
import { consoleMemberships, consoleMerchantPolicies, services } from "../../db/schema";

/** The user's merchants that require two-step verification of their members. */
export async function merchantsRequiringTwoStep(
  db: Db,
  userId: string,
): Promise<{ serviceId: string; name: string }[]> {
  return db
    .select({ serviceId: services.id, name: services.name })
    .from(consoleMemberships)
    .innerJoin(consoleMerchantPolicies, eq(consoleMerchantPolicies.serviceId, consoleMemberships.serviceId))
    .innerJoin(services, eq(services.id, consoleMemberships.serviceId))
    .where(and(eq(consoleMemberships.userId, userId), eq(consoleMerchantPolicies.requiresTwoStep, true)));
}

/** An owner requires (or stops requiring) two-step verification of every member of the merchant. */
export async function setTwoStepRequirement(
  db: Db,
  options: { actor: AuditActor; serviceId: string; required: boolean },
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .insert(consoleMerchantPolicies)
      .values({ serviceId: options.serviceId, requiresTwoStep: options.required })
      .onConflictDoUpdate({
        target: consoleMerchantPolicies.serviceId,
        set: { requiresTwoStep: options.required, updatedAt: new Date() },
      });
    await recordAuditEntry(tx, {
      actor: options.actor,
      serviceId: options.serviceId,
      action: options.required ? "two_step_required" : "two_step_not_required",
    });
  });
}
