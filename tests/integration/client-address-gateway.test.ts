import { and, desc, eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog } from "@/lib/db/schema";
import { consoleSessionOf, createConsoleUser, postForm } from "../support/console";
import { createMerchant } from "../support/factories";
import { freePort, spawnGateway, type SpawnedGateway } from "../support/spawned-gateway";
import { useTestGateway } from "../support/test-gateway";

/**
 * The client address rule (lib/http/client-address.ts) through the real `npm start` entry
 * (server/serve.mjs stamps the TCP peer): the console's form handler (Next.js), a page through
 * proxy.ts (Next.js) and a signed-in page on the console lane, from 127.0.0.1, once as an untrusted
 * peer and once as a trusted proxy.
 */
useTestGateway();
const servers: SpawnedGateway[] = [];
afterAll(() => {
  for (const server of servers) server.process.kill("SIGKILL");
});

async function gatewayTrusting(trustedProxies: string): Promise<string> {
  const port = await freePort();
  servers.push(await spawnGateway(port, { TRUSTED_PROXIES: trustedProxies }));
  return `http://127.0.0.1:${port}`;
}

async function failedSignInAddress(
  baseUrl: string,
  email: string,
  headers: Record<string, string>,
): Promise<string | null> {
  const response = await postForm(
    baseUrl,
    "/en/console/actions/sign-in",
    { email, password: "not the password at all" },
    headers,
  );
  expect(response.status).toBe(303);
  const [entry] = await (
    await getDb()
  )
    .select({ ip: consoleAuditLog.ip })
    .from(consoleAuditLog)
    .where(and(eq(consoleAuditLog.userEmail, email), eq(consoleAuditLog.action, "sign_in_failed")))
    .orderBy(desc(consoleAuditLog.id))
    .limit(1);
  return entry!.ip;
}

async function upgradesOverHttps(baseUrl: string, path: string, headers: Record<string, string>): Promise<boolean> {
  const response = await fetch(baseUrl + path, {
    headers: { "x-forwarded-proto": "https", ...headers },
    redirect: "manual",
  });
  expect(response.status).toBe(200);
  return (response.headers.get("content-security-policy") ?? "").includes("upgrade-insecure-requests");
}

describe("npm start's client address", { timeout: 900_000 }, () => {
  it("ignores forwarded headers from untrusted peers; takes a trusted proxy's last hop and scheme", async () => {
    const user = await createConsoleUser([{ merchant: await createMerchant(), role: "owner" }]);
    const session = await consoleSessionOf(user.id);
    const forged = {
      "x-forwarded-for": "203.0.113.66",
      "x-real-ip": "203.0.113.66",
      forwarded: "for=203.0.113.66;proto=https",
    };

    const untrusting = await gatewayTrusting("10.0.0.5");
    expect(await failedSignInAddress(untrusting, user.email, forged)).toBe("127.0.0.1");
    // A client that names the trusted proxy in the gateway's own header gets it replaced by its socket's address.
    expect(await failedSignInAddress(untrusting, user.email, { ...forged, "x-gateway-peer": "10.0.0.5" })).toBe(
      "127.0.0.1",
    );
    expect(await upgradesOverHttps(untrusting, "/en/console/sign-in", {})).toBe(false);
    expect(await upgradesOverHttps(untrusting, "/en/console/payments", { cookie: session.cookie })).toBe(false);

    const first = servers.pop()!.process;
    first.kill("SIGTERM");
    await new Promise((resolve) => first.once("exit", resolve));
    const trusting = await gatewayTrusting("127.0.0.0/8");
    expect(await failedSignInAddress(trusting, user.email, { "x-forwarded-for": "1.2.3.4, 203.0.113.66" })).toBe(
      "203.0.113.66",
    );
    expect(await upgradesOverHttps(trusting, "/en/console/sign-in", {})).toBe(true);
    expect(await upgradesOverHttps(trusting, "/en/console/payments", { cookie: session.cookie })).toBe(true);
  });
});
