import { and, desc, eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { CONSOLE_SESSION_COOKIE } from "@/lib/console/access/console-principal";
import { parseConfig } from "@/lib/config";
import { resolveConsoleSession } from "@/lib/console/access/console-sessions";
import { pendingTwoStepSecret, startTwoStepSetup, confirmTwoStepSetup } from "@/lib/console/access/two-step-setup";
import { totpCode, totpStepAt } from "@/lib/console/access/totp";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog } from "@/lib/db/schema";
import { consoleSessionOf, createConsoleUser, postForm, TEST_PASSWORD } from "../support/console";
import { useTestGateway } from "../support/test-gateway";

// Over a real socket (the in-process server stamps the TCP peer as npm start's does): the peer is 127.0.0.1.
const gateway = useTestGateway();
const holder = globalThis as unknown as { gatewayConfig?: ReturnType<typeof parseConfig> };
const untouched = holder.gatewayConfig;
afterEach(() => {
  holder.gatewayConfig = untouched;
});

const FORGED = { "x-forwarded-for": "203.0.113.66", "x-real-ip": "203.0.113.66", forwarded: "for=203.0.113.66" };

async function failedSignInAddress(email: string, headers: Record<string, string>): Promise<string | null> {
  const response = await postForm(
    gateway.baseUrl,
    "/en/console/actions/sign-in",
    { email, password: "not the password at all" },
    headers,
  );
  expect(response.status).toBe(303);
  const db = await getDb();
  const [entry] = await db
    .select({ ip: consoleAuditLog.ip })
    .from(consoleAuditLog)
    .where(and(eq(consoleAuditLog.userEmail, email), eq(consoleAuditLog.action, "sign_in_failed")))
    .orderBy(desc(consoleAuditLog.id))
    .limit(1);
  return entry!.ip;
}

describe("the audit log's client address cannot be forged", { timeout: 120_000 }, () => {
  it("records the TCP peer if not a trusted proxy, whatever X-Forwarded-For, X-Real-IP or Forwarded say", async () => {
    const user = await createConsoleUser();
    expect(await failedSignInAddress(user.email, FORGED)).toBe("127.0.0.1");
    // Trusting some other proxy changes nothing for this peer.
    holder.gatewayConfig = parseConfig({ ...process.env, TRUSTED_PROXIES: "10.0.0.0/8" });
    expect(await failedSignInAddress(user.email, FORGED)).toBe("127.0.0.1");
  });

  it("records the right-most address a trusted proxy forwarded, not what the client wrote before it", async () => {
    holder.gatewayConfig = parseConfig({ ...process.env, TRUSTED_PROXIES: "127.0.0.1" });
    const user = await createConsoleUser();
    expect(await failedSignInAddress(user.email, { "x-forwarded-for": "1.2.3.4, 203.0.113.66" })).toBe("203.0.113.66");
    // A client that writes the gateway's own header gets it replaced by its socket's address.
    holder.gatewayConfig = parseConfig({ ...process.env, TRUSTED_PROXIES: "10.0.0.5" });
    expect(
      await failedSignInAddress(user.email, { "x-gateway-peer": "10.0.0.5", "x-forwarded-for": "203.0.113.66" }),
    ).toBe("127.0.0.1");
  });
});

const sessionCookieOf = (response: Response) =>
  new RegExp(`${CONSOLE_SESSION_COOKIE}=([^;]*)`).exec(response.headers.get("set-cookie") ?? "")?.[1];

describe("every step up issues a new session token", { timeout: 120_000 }, () => {
  it("ends the session a browser brought to the password step (a planted cookie is never signed in)", async () => {
    const user = await createConsoleUser();
    const planted = await consoleSessionOf(user.id, { stage: "code" });
    const response = await postForm(
      gateway.baseUrl,
      "/en/console/actions/sign-in",
      { email: user.email, password: TEST_PASSWORD },
      { cookie: planted.cookie },
    );
    expect(response.status).toBe(303);
    const issued = sessionCookieOf(response);
    expect(issued).toBeTruthy();
    expect(issued).not.toBe(planted.token);
    const db = await getDb();
    expect(await resolveConsoleSession(db, planted.token)).toBeNull();
    expect(await resolveConsoleSession(db, issued)).not.toBeNull();
  });

  it("replaces the code-stage token when the code is accepted: the old one stops working", async () => {
    const db = await getDb();
    const user = await createConsoleUser();
    await startTwoStepSetup(db, user.id);
    const secret = (await pendingTwoStepSecret(db, user.id))!;
    const actor = { userId: user.id, email: user.email, ip: null };
    const earlier = new Date(Date.now() - 60_000);
    expect(
      (
        await confirmTwoStepSetup(db, {
          actor,
          code: totpCode(secret, totpStepAt(earlier)),
          clock: { now: () => earlier },
        })
      ).outcome,
    ).toBe("enabled");
    const codeStep = await consoleSessionOf(user.id, { stage: "code" });
    const response = await postForm(
      gateway.baseUrl,
      "/en/console/actions/verify-code",
      { code: totpCode(secret, totpStepAt(new Date())), formToken: codeStep.formToken },
      { cookie: codeStep.cookie },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/en/console");
    const issued = sessionCookieOf(response);
    expect(issued).toBeTruthy();
    expect(issued).not.toBe(codeStep.token);
    expect(await resolveConsoleSession(db, codeStep.token)).toBeNull();
    expect((await resolveConsoleSession(db, issued))?.stage).toBe("active");
  });
});
