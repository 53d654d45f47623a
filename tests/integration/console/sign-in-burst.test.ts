import { describe, expect, it, vi } from "vitest";
import { signIn } from "@/lib/console/access/sign-in";
import { LOCKOUT_FAILURES, recordSignInFailure } from "@/lib/console/access/sign-in-lockout";
import { getDb } from "@/lib/db/client";
import { createConsoleUser, fixedClock, TEST_PASSWORD } from "../../support/console";
import { createMerchant } from "../../support/factories";

// What runs while one sign-in's password is being hashed (a few hundred milliseconds of scrypt):
// the rest of a burst of guesses sent at once, all past the lock check before any was counted.
const hashing = vi.hoisted(() => ({ meanwhile: null as null | (() => Promise<void>) }));

vi.mock("@/lib/console/access/passwords", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/console/access/passwords")>();
  return {
    ...real,
    async verifyPassword(password: string, stored: string) {
      const meanwhile = hashing.meanwhile;
      hashing.meanwhile = null;
      if (meanwhile) await meanwhile();
      return real.verifyPassword(password, stored);
    },
  };
});

describe("a burst of sign-ins sent at once", () => {
  it("does not let the right password through once the burst's failures have locked the email", async () => {
    const db = await getDb();
    const user = await createConsoleUser([{ merchant: await createMerchant(), role: "owner" }]);
    const clock = fixedClock(new Date("2031-06-01T09:00:00Z"));
    hashing.meanwhile = async () => {
      for (let i = 0; i < LOCKOUT_FAILURES; i += 1) await recordSignInFailure(db, user.email, clock.now());
    };
    const result = await signIn(db, { email: user.email, password: TEST_PASSWORD, ip: null, clock });
    expect(hashing.meanwhile).toBeNull();
    expect(result.outcome).toBe("locked");
  });
});
