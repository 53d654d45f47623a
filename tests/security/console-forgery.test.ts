import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { consoleAuditLog } from "@/lib/db/schema";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { clientAuth } from "../support/api";
import { consoleSessionOf, createConsoleUser, postForm, serviceIdOf } from "../support/console";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";

const gateway = useTestGateway();
let merchant: OnboardedMerchant;
let owner: { id: string };
let serviceId: string;

beforeAll(async () => {
  merchant = await createMerchant();
  serviceId = await serviceIdOf(merchant);
  owner = await createConsoleUser([{ merchant, role: "owner" }]);
});

const ROLL = "/en/console/actions/roll-client-secret";

async function rollsRecorded(): Promise<number> {
  const db = await getDb();
  return (await db.select().from(consoleAuditLog).where(eq(consoleAuditLog.serviceId, serviceId))).filter(
    (entry) => entry.action === "client_secret_rolled",
  ).length;
}

describe("console forgery (contract 13): a state change needs the session's own token, from our own origin", () => {
  it("refuses a post without the token (403) and changes nothing", async () => {
    const session = await consoleSessionOf(owner.id);
    const response = await postForm(gateway.baseUrl, ROLL, {}, { cookie: session.cookie });
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("This form was not sent from the console");
    expect(await rollsRecorded()).toBe(0);
    // The merchant's client secret still opens the API.
    expect((await gateway.api.get("/api/v1/events", clientAuth(merchant))).status).toBe(200);
  });

  it("refuses another session's token, even one of the same user", async () => {
    const mine = await consoleSessionOf(owner.id);
    const other = await consoleSessionOf(owner.id);
    const response = await postForm(gateway.baseUrl, ROLL, { formToken: other.formToken }, { cookie: mine.cookie });
    expect(response.status).toBe(403);
    expect(await rollsRecorded()).toBe(0);
  });

  it.each([
    ["an Origin of another site", { origin: "https://evil.example" }],
    ["Sec-Fetch-Site: cross-site", { "sec-fetch-site": "cross-site" }],
    ["Sec-Fetch-Site: same-site (a sibling subdomain)", { "sec-fetch-site": "same-site" }],
  ])("refuses a post carrying %s, even with a valid token", async (_label, headers) => {
    const session = await consoleSessionOf(owner.id);
    const response = await postForm(
      gateway.baseUrl,
      ROLL,
      { formToken: session.formToken },
      { cookie: session.cookie, ...headers },
    );
    expect(response.status).toBe(403);
    expect(await rollsRecorded()).toBe(0);
  });

  it("acts on a post with the session's token from our own origin", async () => {
    const session = await consoleSessionOf(owner.id);
    const response = await postForm(
      gateway.baseUrl,
      ROLL,
      { formToken: session.formToken },
      { cookie: session.cookie, origin: gateway.baseUrl },
    );
    expect(response.status).toBe(303);
    expect(await rollsRecorded()).toBe(1);
    // The old secret stopped at once.
    expect((await gateway.api.get("/api/v1/events", clientAuth(merchant))).status).toBe(401);
  });
});

describe("the console principal and the API's principals never open each other", () => {
  it("API credentials don't open the console: a post with client_auth and no session is sent to sign in", async () => {
    const other = await createMerchant();
    const response = await postForm(gateway.baseUrl, ROLL, {}, clientAuth(other));
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/en/console/sign-in");
    expect((await gateway.api.get("/api/v1/events", clientAuth(other))).status).toBe(200);
  });

  it("a console session does not open the API: its cookie alone is a 401", async () => {
    const session = await consoleSessionOf(owner.id);
    const response = await gateway.api.get("/api/v1/events", { cookie: session.cookie });
    expect(response.status).toBe(401);
    expect(response.body.error.name).toBe("invalid_credentials");
  });
});
