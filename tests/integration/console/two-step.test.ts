import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { confirmTwoStepSetup, pendingTwoStepSecret, startTwoStepSetup } from "@/lib/console/access/two-step-setup";
import { signIn } from "@/lib/console/access/sign-in";
import { base32Encode, otpauthUri, totpCode, totpStepAt } from "@/lib/console/access/totp";
import { LOCKOUT_FAILURES } from "@/lib/console/access/sign-in-lockout";
import { verifySecondStep } from "@/lib/console/access/verify-second-step";
import { resolveConsoleSession } from "@/lib/console/access/console-sessions";
import { getDb } from "@/lib/db/client";
import { consoleRecoveryCodes } from "@/lib/db/schema";
import { createConsoleUser, fixedClock, TEST_PASSWORD } from "../../support/console";

describe("TOTP (RFC 6238)", () => {
  it("computes the RFC's SHA-1 test vectors, truncated to 6 digits", () => {
    const secret = base32Encode(Buffer.from("12345678901234567890"));
    // RFC 6238 appendix B: T=59 → 94287082, T=1111111109 → 07081804, T=20000000000 → 65353130.
    expect(totpCode(secret, totpStepAt(new Date(59_000)))).toBe("287082");
    expect(totpCode(secret, totpStepAt(new Date(1_111_111_109_000)))).toBe("081804");
    expect(totpCode(secret, totpStepAt(new Date(20_000_000_000_000)))).toBe("353130");
  });

  it("names 6 digits and 30 seconds in the URI the QR code carries", () => {
    expect(otpauthUri("JBSWY3DPEHPK3PXP", { issuer: "Gateway", account: "a@shop.example" })).toBe(
      "otpauth://totp/Gateway%3Aa%40shop.example?secret=JBSWY3DPEHPK3PXP" +
        "&issuer=Gateway&algorithm=SHA1&digits=6&period=30",
    );
  });
});

async function userWithTwoStep(clock: ReturnType<typeof fixedClock>) {
  const db = await getDb();
  const user = await createConsoleUser();
  const actor = { userId: user.id, email: user.email, ip: null };
  await startTwoStepSetup(db, user.id);
  const secret = (await pendingTwoStepSecret(db, user.id))!;
  expect(
    await confirmTwoStepSetup(db, {
      actor,
      code: "000000" === totpCode(secret, totpStepAt(clock.now())) ? "111111" : "000000",
      clock,
    }),
  ).toEqual({
    outcome: "wrong_code",
  });
  const enabled = await confirmTwoStepSetup(db, { actor, code: totpCode(secret, totpStepAt(clock.now())), clock });
  if (enabled.outcome !== "enabled") throw new Error("two-step not enabled");
  return { user, secret, recoveryCodes: enabled.recoveryCodes };
}

async function passwordStep(email: string, clock: ReturnType<typeof fixedClock>) {
  const result = await signIn(await getDb(), { email, password: TEST_PASSWORD, ip: null, clock });
  if (result.outcome !== "signed_in") throw new Error(`sign-in ${result.outcome}`);
  expect(result.needsCode).toBe(true);
  return result;
}

describe("two-step verification", () => {
  it("gives 10 single-use recovery codes, stored only as hashes", async () => {
    const db = await getDb();
    const clock = fixedClock(new Date("2031-07-01T09:00:00Z"));
    const { user, recoveryCodes } = await userWithTwoStep(clock);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await db.select().from(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, user.id));
    expect(stored).toHaveLength(10);
    for (const row of stored) expect(recoveryCodes).not.toContain(row.codeHash);
  });

  it("keeps recovery codes under the gateway key: a copy of the database alone cannot test a guess", async () => {
    const db = await getDb();
    const clock = fixedClock(new Date("2031-07-07T09:00:00Z"));
    const { user, recoveryCodes } = await userWithTwoStep(clock);
    const stored = new Set(
      (await db.select().from(consoleRecoveryCodes).where(eq(consoleRecoveryCodes.userId, user.id))).map(
        (row) => row.codeHash,
      ),
    );
    for (const code of recoveryCodes) {
      const typed = code.replace("-", "");
      for (const plain of [code, typed, `recovery:${typed}`])
        expect(stored.has(createHash("sha256").update(plain).digest("hex"))).toBe(false);
    }
  });

  it("still takes, once, a recovery code kept by the earlier plain hash", async () => {
    const db = await getDb();
    const clock = fixedClock(new Date("2031-07-08T09:00:00Z"));
    const { user } = await userWithTwoStep(clock);
    await db
      .insert(consoleRecoveryCodes)
      .values({ userId: user.id, codeHash: createHash("sha256").update("recovery:abcdefghjk").digest("hex") });
    const pending = await passwordStep(user.email, clock);
    expect(
      await verifySecondStep(db, { sessionId: pending.sessionId, user, code: "ABCDE-FGHJK", ip: null, clock }),
    ).toMatchObject({ outcome: "verified", method: "recovery_code" });
    expect(
      await verifySecondStep(db, { sessionId: pending.sessionId, user, code: "abcde-fghjk", ip: null, clock }),
    ).toEqual({ outcome: "refused" });
  });

  it("asks for a code after the password, and the password alone opens nothing", async () => {
    const db = await getDb();
    const clock = fixedClock(new Date("2031-07-02T09:00:00Z"));
    const { user } = await userWithTwoStep(clock);
    clock.advance(60_000);
    const pending = await passwordStep(user.email, clock);
    const session = await resolveConsoleSession(db, pending.token, clock);
    expect(session?.stage).toBe("code");
  });

  it("takes a current code once and refuses it a second time (replay)", async () => {
    const db = await getDb();
    const clock = fixedClock(new Date("2031-07-03T09:00:00Z"));
    const { user, secret } = await userWithTwoStep(clock);
    clock.advance(60_000);
    const code = totpCode(secret, totpStepAt(clock.now()));
    const first = await passwordStep(user.email, clock);
    const verified = await verifySecondStep(db, { sessionId: first.sessionId, user, code, ip: null, clock });
    expect(verified).toMatchObject({ outcome: "verified", method: "totp" });
    // A new token for the full session; the one that passed only the password opens nothing now.
    const fullToken = verified.outcome === "verified" ? verified.token : "";
    expect(fullToken).not.toBe(first.token);
    expect((await resolveConsoleSession(db, fullToken, clock))?.stage).toBe("active");
    expect(await resolveConsoleSession(db, first.token, clock)).toBeNull();
    const second = await passwordStep(user.email, clock);
    expect(await verifySecondStep(db, { sessionId: second.sessionId, user, code, ip: null, clock })).toEqual({
      outcome: "refused",
    });
    expect((await resolveConsoleSession(db, second.token, clock))?.stage).toBe("code");
  });

  it("refuses the code used to set it up, and a code from another time window", async () => {
    const db = await getDb();
    const clock = fixedClock(new Date("2031-07-04T09:00:00Z"));
    const { user, secret } = await userWithTwoStep(clock);
    const setupCode = totpCode(secret, totpStepAt(clock.now()));
    const pending = await passwordStep(user.email, clock);
    expect(
      await verifySecondStep(db, { sessionId: pending.sessionId, user, code: setupCode, ip: null, clock }),
    ).toEqual({ outcome: "refused" });
    const stale = totpCode(secret, totpStepAt(clock.now()) - 3);
    clock.advance(30_000);
    expect(await verifySecondStep(db, { sessionId: pending.sessionId, user, code: stale, ip: null, clock })).toEqual({
      outcome: "refused",
    });
  });

  it("takes each recovery code once, in place of a code", async () => {
    const db = await getDb();
    const clock = fixedClock(new Date("2031-07-05T09:00:00Z"));
    const { user, recoveryCodes } = await userWithTwoStep(clock);
    const first = await passwordStep(user.email, clock);
    expect(
      await verifySecondStep(db, {
        sessionId: first.sessionId,
        user,
        code: recoveryCodes[3]!.toUpperCase(),
        ip: null,
        clock,
      }),
    ).toMatchObject({
      outcome: "verified",
      method: "recovery_code",
    });
    const second = await passwordStep(user.email, clock);
    expect(
      await verifySecondStep(db, { sessionId: second.sessionId, user, code: recoveryCodes[3]!, ip: null, clock }),
    ).toEqual({ outcome: "refused" });
    expect(
      await verifySecondStep(db, { sessionId: second.sessionId, user, code: recoveryCodes[4]!, ip: null, clock }),
    ).toMatchObject({
      outcome: "verified",
      method: "recovery_code",
    });
  });
});

describe("the code step's lockout under a burst", () => {
  it("checks no more than 10 wrong codes sent at once, and then refuses even the right one", async () => {
    const db = await getDb();
    const clock = fixedClock(new Date("2031-07-06T09:00:00Z"));
    const { user, secret } = await userWithTwoStep(clock);
    clock.advance(60_000);
    const pending = await passwordStep(user.email, clock);
    const right = totpCode(secret, totpStepAt(clock.now()));
    const wrong = right === "000000" ? "111111" : "000000";
    const burst = await Promise.all(
      Array.from({ length: LOCKOUT_FAILURES + 10 }, () =>
        verifySecondStep(db, { sessionId: pending.sessionId, user, code: wrong, ip: null, clock }),
      ),
    );
    expect(burst.filter((result) => result.outcome === "refused")).toHaveLength(LOCKOUT_FAILURES);
    expect(burst.filter((result) => result.outcome === "locked")).toHaveLength(10);
    expect(
      (await verifySecondStep(db, { sessionId: pending.sessionId, user, code: right, ip: null, clock })).outcome,
    ).toBe("locked");
  });
});
