import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { changePassword } from "@/lib/console/access/change-password";
import { endConsoleSession, resolveConsoleSession } from "@/lib/console/access/console-sessions";
import { hashPassword, passwordProblem, verifyPassword } from "@/lib/console/access/passwords";
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, SESSION_USE_NOTE_MS } from "@/lib/console/access/session-rules";
import { signIn } from "@/lib/console/access/sign-in";
import { LOCKOUT_MS } from "@/lib/console/access/sign-in-lockout";
import { getDb } from "@/lib/db/client";
import { consoleSessions } from "@/lib/db/schema";
import { consoleSessionOf, createConsoleUser, fixedClock, TEST_PASSWORD, uniqueEmail } from "../../support/console";

describe("console passwords", () => {
  it("refuses a password under 12 characters and hashes with scrypt, never storing the password", async () => {
    expect(passwordProblem("eleven chars")).toBeNull();
    expect(passwordProblem("short pass1")).toBe("too_short");
    const hash = await hashPassword("a long enough password");
    expect(hash).toMatch(/^scrypt\$131072\$8\$1\$/);
    expect(hash).not.toContain("a long enough password");
    expect(await verifyPassword("a long enough password", hash)).toBe(true);
    expect(await verifyPassword("a long enough passwore", hash)).toBe(false);
  });
});

describe("console sign-in", () => {
  it("answers a wrong password and an unknown email the same way", async () => {
    const db = await getDb();
    const user = await createConsoleUser();
    const wrong = await signIn(db, { email: user.email, password: "not the password", ip: "203.0.113.9" });
    const unknown = await signIn(db, { email: uniqueEmail("nobody"), password: "not the password", ip: "203.0.113.9" });
    expect(wrong).toEqual({ outcome: "refused" });
    expect(unknown).toEqual(wrong);
    const right = await signIn(db, { email: user.email.toUpperCase(), password: TEST_PASSWORD, ip: null });
    expect(right).toMatchObject({ outcome: "signed_in", needsCode: false });
  });

  it.each([
    ["an existing email", true],
    ["an unknown email", false],
  ])(
    "refuses %s for 15 minutes after 10 failures within 15 minutes, even with the right password",
    async (_label, exists) => {
      const db = await getDb();
      const email = exists ? (await createConsoleUser()).email : uniqueEmail("ghost");
      const clock = fixedClock(new Date("2031-03-01T10:00:00Z"));
      for (let attempt = 0; attempt < 10; attempt += 1) {
        expect(await signIn(db, { email, password: "wrong password!", ip: null, clock })).toEqual({
          outcome: "refused",
        });
        clock.advance(60_000);
      }
      const locked = await signIn(db, { email, password: TEST_PASSWORD, ip: null, clock });
      expect(locked.outcome).toBe("locked");
      clock.advance(LOCKOUT_MS - 60_000 - 1000); // the lock runs 15 minutes from the 10th failure
      expect((await signIn(db, { email, password: TEST_PASSWORD, ip: null, clock })).outcome).toBe("locked");
      clock.advance(2000);
      expect((await signIn(db, { email, password: TEST_PASSWORD, ip: null, clock })).outcome).toBe(
        exists ? "signed_in" : "refused",
      );
    },
  );

  it("does not lock an email whose 10 failures are spread over more than 15 minutes", async () => {
    const db = await getDb();
    const user = await createConsoleUser();
    const clock = fixedClock(new Date("2031-04-01T10:00:00Z"));
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await signIn(db, { email: user.email, password: "wrong password!", ip: null, clock });
      clock.advance(2 * 60_000);
    }
    expect((await signIn(db, { email: user.email, password: TEST_PASSWORD, ip: null, clock })).outcome).toBe(
      "signed_in",
    );
  });
});

describe("console sessions", () => {
  it("end after 12 hours without use", async () => {
    const db = await getDb();
    const user = await createConsoleUser();
    const clock = fixedClock(new Date("2031-05-01T08:00:00Z"));
    const { token } = await consoleSessionOf(user.id, { clock });
    clock.advance(SESSION_IDLE_MS - 60_000);
    expect(await resolveConsoleSession(db, token, clock)).not.toBeNull(); // used: the idle clock restarts
    clock.advance(SESSION_IDLE_MS - 60_000);
    expect(await resolveConsoleSession(db, token, clock)).not.toBeNull();
    clock.advance(SESSION_IDLE_MS + 1000);
    expect(await resolveConsoleSession(db, token, clock)).toBeNull();
  });

  it("note a use once a minute at most: within it a page only reads; idle time runs from the last note", async () => {
    const db = await getDb();
    const user = await createConsoleUser();
    const clock = fixedClock(new Date("2031-07-01T08:00:00Z"));
    const { token, sessionId } = await consoleSessionOf(user.id, { clock });
    const lastNoted = async () =>
      (
        await db
          .select({ at: consoleSessions.lastUsedAt })
          .from(consoleSessions)
          .where(eq(consoleSessions.id, sessionId))
      )[0]!.at.toISOString();
    clock.advance(30_000);
    expect(await resolveConsoleSession(db, token, clock)).not.toBeNull();
    expect(await lastNoted()).toBe("2031-07-01T08:00:00.000Z");
    clock.advance(SESSION_USE_NOTE_MS - 30_000);
    expect(await resolveConsoleSession(db, token, clock)).not.toBeNull();
    expect(await lastNoted()).toBe("2031-07-01T08:01:00.000Z");
    clock.advance(59_000);
    expect(await resolveConsoleSession(db, token, clock)).not.toBeNull();
    expect(await lastNoted()).toBe("2031-07-01T08:01:00.000Z");
    // 12 hours after the last note, 11 h 59 min 1 s after the last use: ended, a minute early at most.
    clock.advance(SESSION_IDLE_MS - 59_000);
    expect(await resolveConsoleSession(db, token, clock)).toBeNull();
    expect(await lastNoted()).toBe("2031-07-01T08:01:00.000Z");
  });

  it("end after 7 days even when used all along", async () => {
    const db = await getDb();
    const user = await createConsoleUser();
    const clock = fixedClock(new Date("2031-06-01T08:00:00Z"));
    const { token } = await consoleSessionOf(user.id, { clock });
    for (let elapsed = 0; elapsed < SESSION_ABSOLUTE_MS - 6 * 3600_000; elapsed += 6 * 3600_000) {
      clock.advance(6 * 3600_000);
      expect(await resolveConsoleSession(db, token, clock)).not.toBeNull();
    }
    clock.advance(6 * 3600_000);
    expect(await resolveConsoleSession(db, token, clock)).toBeNull();
  });

  it("end at once on sign-out", async () => {
    const db = await getDb();
    const user = await createConsoleUser();
    const session = await consoleSessionOf(user.id);
    await endConsoleSession(db, session.sessionId);
    expect(await resolveConsoleSession(db, session.token)).toBeNull();
  });

  it("changing the password ends every other session of the user, not this one", async () => {
    const db = await getDb();
    const user = await createConsoleUser();
    const current = await consoleSessionOf(user.id);
    const other = await consoleSessionOf(user.id);
    const actor = { userId: user.id, email: user.email, ip: null };
    expect(
      await changePassword(db, {
        actor,
        sessionId: current.sessionId,
        currentPassword: TEST_PASSWORD,
        newPassword: "short",
      }),
    ).toEqual({
      outcome: "invalid_new_password",
      problem: "too_short",
    });
    expect(await resolveConsoleSession(db, other.token)).not.toBeNull();
    expect(
      await changePassword(db, {
        actor,
        sessionId: current.sessionId,
        currentPassword: "wrong password",
        newPassword: "a brand new password",
      }),
    ).toEqual({
      outcome: "wrong_password",
    });
    expect(
      await changePassword(db, {
        actor,
        sessionId: current.sessionId,
        currentPassword: TEST_PASSWORD,
        newPassword: "a brand new password",
      }),
    ).toEqual({
      outcome: "changed",
    });
    expect(await resolveConsoleSession(db, other.token)).toBeNull();
    expect(await resolveConsoleSession(db, current.token)).not.toBeNull();
    expect((await signIn(db, { email: user.email, password: "a brand new password", ip: null })).outcome).toBe(
      "signed_in",
    );
  });
});
