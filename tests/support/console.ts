import { randomInt } from "node:crypto";
import { eq } from "drizzle-orm";
import { CONSOLE_SESSION_COOKIE } from "@/lib/console/access/console-principal";
import type { Clock } from "@/lib/clock";
import { consoleFormToken } from "@/lib/console/web/console-form-token";
import { createConsoleSession } from "@/lib/console/access/console-sessions";
import { hashPassword } from "@/lib/console/access/passwords";
import type { ConsoleRole } from "@/lib/console/access/roles";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { getDb } from "@/lib/db/client";
import { consoleMemberships, consoleUsers, services } from "@/lib/db/schema";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";

export const TEST_PASSWORD = "correct horse battery";

let hashed: Promise<string> | undefined;
let counter = 0;

export function uniqueEmail(label = "person"): string {
  counter += 1;
  return `${label}-${process.pid}-${counter}-${randomInt(1e6)}@shop.example`;
}

export async function serviceIdOf(merchant: OnboardedMerchant): Promise<string> {
  const [row] = await (
    await getDb()
  )
    .select({ id: services.id })
    .from(services)
    .where(eq(services.code, merchant.service));
  return row!.id;
}

/**
 * A console user with TEST_PASSWORD (hashed once per file: scrypt is slow on purpose), a member of each
 * merchant given.
 */
export async function createConsoleUser(
  memberOf: { merchant: OnboardedMerchant; role: ConsoleRole }[] = [],
  email = uniqueEmail(),
) {
  const db = await getDb();
  hashed ??= hashPassword(TEST_PASSWORD);
  const [user] = await db
    .insert(consoleUsers)
    .values({ email, name: "Test Person", passwordHash: await hashed })
    .returning();
  for (const { merchant, role } of memberOf) {
    await db.insert(consoleMemberships).values({ userId: user!.id, serviceId: await serviceIdOf(merchant), role });
  }
  return { id: user!.id, email };
}

/** A signed-in session of the user: its cookie header and the forgery token its pages carry. */
export async function consoleSessionOf(userId: string, options: { clock?: Clock; stage?: "code" | "active" } = {}) {
  const db = await getDb();
  const { token, sessionId } = await createConsoleSession(db, {
    userId,
    stage: options.stage ?? "active",
    clock: options.clock,
  });
  return {
    token,
    sessionId,
    cookie: `${CONSOLE_SESSION_COOKIE}=${token}`,
    formToken: consoleFormToken(await getGatewayKey(db), sessionId),
  };
}

/** A plain HTML form post, as a browser sends it from our own page. */
export function postForm(
  baseUrl: string,
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return fetch(`${baseUrl}${path}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin", ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

export function fixedClock(at: Date): Clock & { advance(ms: number): void } {
  let now = at.getTime();
  return {
    now: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}
