import { describe, expect, it } from "vitest";
import { demoOwnerPassword, DEMO_OWNER_EMAIL, ensureDemoOwner } from "@/lib/console/merchants/ensure-demo-owner";
import { acceptInvitation } from "@/lib/console/access/accept-invitation";
import { listMemberships } from "@/lib/console/access/memberships";
import { signIn } from "@/lib/console/access/sign-in";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { getDb } from "@/lib/db/client";
import { uniqueEmail } from "../../support/console";
import { createMerchant } from "../../support/factories";
import { runScript } from "../../support/run-script";
import { eq } from "drizzle-orm";
import { services } from "@/lib/db/schema";
import { DEMO_MERCHANT_NAME } from "@/lib/merchants/demo-merchant";

const tokenOf = (url: string) => url.split("/").at(-1)!;

describe("npm run merchant (contract 13)", () => {
  it("create --owner-email prints ownerInviteUrl beside the onboarding fields; the link makes its owner", async () => {
    const email = uniqueEmail("owner");
    const result = await runScript("scripts/merchant.ts", [
      "create",
      "--name",
      `CLI Owner Shop ${process.pid}`,
      "--country",
      "DZA",
      "--owner-email",
      email,
      "--json",
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed).toMatchObject({ clientId: expect.any(String), clientSecret: expect.any(String) });
    expect(printed.ownerInviteUrl).toMatch(/^http:\/\/localhost:\d+\/console\/invitations\/[A-Za-z0-9_-]{43}$/);
    const db = await getDb();
    const joined = await acceptInvitation(db, {
      token: tokenOf(printed.ownerInviteUrl),
      name: "First Owner",
      password: "the first owner's password",
      ip: null,
    });
    if (joined.outcome !== "joined") throw new Error(joined.outcome);
    const session = await signIn(db, { email, password: "the first owner's password", ip: null });
    expect(session.outcome).toBe("signed_in");
  });

  it("invite --client-id --email --role --json prints { inviteUrl }", async () => {
    const merchant = await createMerchant();
    const email = uniqueEmail("support");
    const result = await runScript("scripts/merchant.ts", [
      "invite",
      "--client-id",
      merchant.clientId,
      "--email",
      email,
      "--role",
      "support",
      "--json",
    ]);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(Object.keys(printed)).toEqual(["inviteUrl"]);
    const db = await getDb();
    const joined = await acceptInvitation(db, {
      token: tokenOf(printed.inviteUrl),
      name: "Sam",
      password: "support person password",
      ip: null,
    });
    if (joined.outcome !== "joined") throw new Error(joined.outcome);
    const [membership] = await listMemberships(
      db,
      (await db.query.consoleUsers.findFirst({ where: (users, { eq: equals }) => equals(users.email, email) }))!.id,
    );
    expect(membership).toMatchObject({ merchantName: merchant.name, role: "support" });
  });

  it("invite refuses an unknown role before touching anything", async () => {
    const result = await runScript("scripts/merchant.ts", [
      "invite",
      "--client-id",
      "x.y.z",
      "--email",
      "a@shop.example",
      "--role",
      "admin",
      "--json",
    ]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("owner, developer, support, viewer");
  });
});

describe("the sandbox demo owner (npm start)", () => {
  it("signs in with the email and the password npm start prints", async () => {
    const db = await getDb();
    const [demo] = await db.select({ id: services.id }).from(services).where(eq(services.name, DEMO_MERCHANT_NAME));
    if (!demo) await createMerchant({ name: DEMO_MERCHANT_NAME });
    const owner = await ensureDemoOwner(db, await getGatewayKey(db));
    expect(owner).toEqual({ email: DEMO_OWNER_EMAIL, password: demoOwnerPassword(await getGatewayKey(db)) });
    expect(await ensureDemoOwner(db, await getGatewayKey(db))).toEqual(owner); // a second start prints the same
    expect((await signIn(db, { email: owner!.email, password: owner!.password, ip: null })).outcome).toBe("signed_in");
  });
});
