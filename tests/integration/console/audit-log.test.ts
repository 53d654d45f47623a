import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { listAuditEntries } from "@/lib/audit-log/list-audit-entries";
import { recordAuditEntry } from "@/lib/audit-log/record-audit-entry";
import { rollClientSecret } from "@/lib/console/merchants/merchant-keys";
import { acceptInvitation } from "@/lib/console/access/accept-invitation";
import { createInvitation } from "@/lib/console/access/invitations";
import { signIn } from "@/lib/console/access/sign-in";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog } from "@/lib/db/schema";
import { createConsoleUser, serviceIdOf, TEST_PASSWORD } from "../../support/console";
import { createMerchant } from "../../support/factories";

/** Drizzle wraps the server's error; the trigger's message is its cause. */
const refusedAsAppendOnly = (error: unknown) =>
  /append-only/.test(String((error as { cause?: Error }).cause?.message ?? (error as Error).message));

describe("the audit log", () => {
  it("is refused UPDATE, DELETE and TRUNCATE by the database itself", async () => {
    const db = await getDb();
    const serviceId = await serviceIdOf(await createMerchant());
    await recordAuditEntry(db, {
      actor: { userId: null, email: "someone@shop.example", ip: "198.51.100.1" },
      serviceId,
      action: "settings_changed",
      target: "name",
    });
    const [entry] = await db.select().from(consoleAuditLog).where(eq(consoleAuditLog.serviceId, serviceId));
    await expect(
      db.update(consoleAuditLog).set({ action: "sign_in" }).where(eq(consoleAuditLog.id, entry!.id)),
    ).rejects.toSatisfy(refusedAsAppendOnly);
    await expect(db.delete(consoleAuditLog).where(eq(consoleAuditLog.id, entry!.id))).rejects.toSatisfy(
      refusedAsAppendOnly,
    );
    await expect(db.execute(sql`truncate console_audit_log`)).rejects.toSatisfy(refusedAsAppendOnly);
    const [still] = await db.select().from(consoleAuditLog).where(eq(consoleAuditLog.id, entry!.id));
    expect(still).toEqual(entry);
  });

  it("commits an entry with the change it records, or neither", async () => {
    const db = await getDb();
    const serviceId = await serviceIdOf(await createMerchant());
    const actor = { userId: null, email: "owner@shop.example", ip: null };
    await expect(
      db.transaction(async (tx) => {
        await recordAuditEntry(tx, { actor, serviceId, action: "settings_changed", target: "name" });
        throw new Error("the change failed");
      }),
    ).rejects.toThrow("the change failed");
    expect(await db.select().from(consoleAuditLog).where(eq(consoleAuditLog.serviceId, serviceId))).toEqual([]);
  });

  it("records a key roll (user, merchant, target, IP) and sign-ins, filtered by user and action", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const serviceId = await serviceIdOf(merchant);
    const owner = await createConsoleUser([{ merchant, role: "owner" }]);
    await signIn(db, { email: owner.email, password: "a wrong password", ip: "203.0.113.7" });
    await signIn(db, { email: owner.email, password: TEST_PASSWORD, ip: "203.0.113.7" });
    await rollClientSecret(db, { actor: { userId: owner.id, email: owner.email, ip: "203.0.113.7" }, serviceId });
    const all = await listAuditEntries(db, { serviceId });
    expect(all.entries.map((entry) => entry.action)).toEqual(["client_secret_rolled", "sign_in", "sign_in_failed"]);
    expect(all.entries[0]).toMatchObject({ userEmail: owner.email, target: merchant.clientId, ip: "203.0.113.7" });
    const rolls = await listAuditEntries(db, {
      serviceId,
      action: "client_secret_rolled",
      userEmail: owner.email.toUpperCase(),
    });
    expect(rolls.entries).toHaveLength(1);
    expect((await listAuditEntries(db, { serviceId, userEmail: "nobody@shop.example" })).entries).toEqual([]);
    // Another merchant's owner reads none of it.
    expect((await listAuditEntries(db, { serviceId: await serviceIdOf(await createMerchant()) })).entries).toEqual([]);
  });

  it("records a wrong password typed on an invitation link as a failed sign-in", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const serviceId = await serviceIdOf(merchant);
    const person = await createConsoleUser([{ merchant: await createMerchant(), role: "owner" }]);
    const { token } = await createInvitation(db, { serviceId, email: person.email, role: "viewer", actor: null });
    expect(await acceptInvitation(db, { token, name: "", password: "a wrong password", ip: "203.0.113.9" })).toEqual({
      outcome: "wrong_password",
    });
    const failed = await db.select().from(consoleAuditLog).where(eq(consoleAuditLog.userEmail, person.email));
    expect(failed.map((entry) => [entry.action, entry.userId, entry.ip])).toEqual([
      ["sign_in_failed", person.id, "203.0.113.9"],
    ]);
  });
});
