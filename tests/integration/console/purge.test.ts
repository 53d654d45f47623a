import { eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { createInvitation } from "@/lib/console/access/invitations";
import { purgeConsoleRecords } from "@/lib/console/access/purge-console-records";
import { recordSignInFailure } from "@/lib/console/access/sign-in-lockout";
import { getDb } from "@/lib/db/client";
import { consoleInvitations, consoleSessions, consoleSignInFailures } from "@/lib/db/schema";
import { consoleSessionOf, createConsoleUser, fixedClock, serviceIdOf, uniqueEmail } from "../../support/console";
import { createMerchant } from "../../support/factories";

const DAY = 24 * 3600_000;

describe("the console's purge job", () => {
  it("removes dead sessions, old sign-in failures and long-closed invitations; keeps what still counts", async () => {
    const db = await getDb();
    const user = await createConsoleUser();
    const live = await consoleSessionOf(user.id);
    const stale = await consoleSessionOf(user.id, { clock: fixedClock(new Date(Date.now() - 9 * DAY)) });
    const oldEmail = uniqueEmail("old");
    const recentEmail = uniqueEmail("recent");
    await recordSignInFailure(db, oldEmail, new Date(Date.now() - 2 * 3600_000));
    await recordSignInFailure(db, recentEmail, new Date(Date.now() - 10 * 60_000));
    const serviceId = await serviceIdOf(await createMerchant());
    await createInvitation(db, {
      serviceId,
      email: uniqueEmail(),
      role: "viewer",
      actor: null,
      clock: fixedClock(new Date(Date.now() - 40 * DAY)),
    });
    await createInvitation(db, { serviceId, email: uniqueEmail(), role: "viewer", actor: null });

    expect(await purgeConsoleRecords(db)).toBeGreaterThanOrEqual(3);

    const sessions = await db
      .select({ id: consoleSessions.id })
      .from(consoleSessions)
      .where(inArray(consoleSessions.id, [live.sessionId, stale.sessionId]));
    expect(sessions.map((row) => row.id)).toEqual([live.sessionId]);
    expect(await db.select().from(consoleSignInFailures).where(eq(consoleSignInFailures.email, oldEmail))).toEqual([]);
    expect(
      await db.select().from(consoleSignInFailures).where(eq(consoleSignInFailures.email, recentEmail)),
    ).toHaveLength(1);
    expect(await db.select().from(consoleInvitations).where(eq(consoleInvitations.serviceId, serviceId))).toHaveLength(
      1,
    );
  });
});
