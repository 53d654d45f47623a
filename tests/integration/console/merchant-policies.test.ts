import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authenticateConsole } from "@/lib/console/access/console-principal";
import { updateMerchantSettings } from "@/lib/console/merchants/merchant-settings";
import { signUp } from "@/lib/console/merchants/sign-up";
import { listMemberships } from "@/lib/console/access/memberships";
import { confirmTwoStepSetup, pendingTwoStepSecret, startTwoStepSetup } from "@/lib/console/access/two-step-setup";
import { setTwoStepRequirement } from "@/lib/console/access/two-step-policy";
import { totpCode, totpStepAt } from "@/lib/console/access/totp";
import { turnOffTwoStep } from "@/lib/console/access/turn-off-two-step";
import { getDb, onQuery } from "@/lib/db/client";
import { services } from "@/lib/db/schema";
import {
  consoleSessionOf,
  createConsoleUser,
  postForm,
  serviceIdOf,
  TEST_PASSWORD,
  uniqueEmail,
} from "../../support/console";
import { createMerchant } from "../../support/factories";
import { inProduction } from "../../support/production-config";
import { useTestGateway } from "../../support/test-gateway";

const gateway = useTestGateway();

describe("an owner requiring two-step verification", () => {
  it("sends a member without it to set it up before anything else, and keeps it from being turned off", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const serviceId = await serviceIdOf(merchant);
    const owner = await createConsoleUser([{ merchant, role: "owner" }]);
    const session = await consoleSessionOf(owner.id);
    await setTwoStepRequirement(db, {
      actor: { userId: owner.id, email: owner.email, ip: null },
      serviceId,
      required: true,
    });

    expect((await authenticateConsole(db, { sessionToken: session.token }))?.mustSetUpTwoStep).toBe(true);
    const refused = await postForm(
      gateway.baseUrl,
      "/en/console/actions/roll-client-secret",
      { formToken: session.formToken },
      { cookie: session.cookie },
    );
    expect(refused.status).toBe(303);
    expect(refused.headers.get("location")).toBe("/en/console/account");

    // The setup itself stays open.
    const start = await postForm(
      gateway.baseUrl,
      "/en/console/actions/two-step-start",
      { formToken: session.formToken },
      { cookie: session.cookie },
    );
    expect(start.status).toBe(303);
    const secret = (await pendingTwoStepSecret(db, owner.id))!;
    const confirmed = await confirmTwoStepSetup(db, {
      actor: { userId: owner.id, email: owner.email, ip: null },
      code: totpCode(secret, totpStepAt(new Date())),
    });
    expect(confirmed.outcome).toBe("enabled");
    expect((await authenticateConsole(db, { sessionToken: session.token }))?.mustSetUpTwoStep).toBe(false);
    const allowed = await postForm(
      gateway.baseUrl,
      "/en/console/actions/roll-client-secret",
      { formToken: session.formToken },
      { cookie: session.cookie },
    );
    expect(allowed.headers.get("location")).toBe("/en/console/developers");

    expect(
      await turnOffTwoStep(db, { actor: { userId: owner.id, email: owner.email, ip: null }, password: TEST_PASSWORD }),
    ).toEqual({
      outcome: "required",
      merchantName: merchant.name,
    });
  });
});

describe("sandbox sign-up", () => {
  it("creates a user that owns a new sandbox merchant in the three countries, and refuses a taken email", async () => {
    const db = await getDb();
    const email = uniqueEmail("signup");
    const created = await signUp(db, {
      name: "Lina",
      email,
      password: "a long sign-up password",
      businessName: "Lina Crafts",
      ip: null,
    });
    if (created.outcome !== "created") throw new Error(created.outcome);
    const [service] = await db.select().from(services).where(eq(services.id, created.serviceId));
    expect(service).toMatchObject({ name: "Lina Crafts", countries: ["DZA", "MAR", "TUN"] });
    const principal = await authenticateConsole(db, { sessionToken: created.token });
    expect(principal?.membership).toMatchObject({ serviceId: created.serviceId, role: "owner" });
    expect(await listMemberships(db, principal!.user.id)).toHaveLength(1);

    expect(
      await signUp(db, {
        name: "Other",
        email: email.toUpperCase(),
        password: "a long sign-up password",
        businessName: "Other",
        ip: null,
      }),
    ).toEqual({
      outcome: "invalid",
      field: "email",
      problem: "email_taken",
    });
    expect(
      await signUp(db, { name: "Short", email: uniqueEmail(), password: "too short", businessName: "Short", ip: null }),
    ).toMatchObject({
      outcome: "invalid",
      field: "password",
    });
  });

  it("does not exist in production: the form's post answers 404", async () => {
    const response = await inProduction(() =>
      postForm(gateway.baseUrl, "/en/console/actions/sign-up", {
        name: "Prod",
        email: uniqueEmail(),
        password: "a long sign-up password",
        businessName: "Prod",
      }),
    );
    expect(response.status).toBe(404);
  });

  it("sets the session cookie HttpOnly and SameSite=Lax, and Secure in production", async () => {
    const { sessionCookie } = await import("@/lib/console/web/session-cookie");
    expect(sessionCookie("token")).toMatch(
      /^gw_console_session=token; Path=\/; HttpOnly; SameSite=Lax; Max-Age=604800$/,
    );
    expect(await inProduction(async () => sessionCookie("token"))).toMatch(/; Secure$/);
  });
});

describe("settings", () => {
  it("follow the rules of merchant update: a bad URL is refused beside its field and nothing changes", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const serviceId = await serviceIdOf(merchant);
    const actor = { userId: null, email: "owner@shop.example", ip: null };
    expect(
      await updateMerchantSettings(db, {
        actor,
        serviceId,
        changes: { name: "Renamed", redirectUrl: "ftp://nope", origins: [] },
      }),
    ).toMatchObject({
      outcome: "invalid",
      field: "redirectUrl",
    });
    expect(
      await updateMerchantSettings(db, {
        actor,
        serviceId,
        changes: { name: "Renamed", redirectUrl: null, origins: ["https://shop.example/path"] },
      }),
    ).toEqual({
      outcome: "saved",
    });
    const [service] = await db.select().from(services).where(eq(services.id, serviceId));
    expect(service).toMatchObject({ name: "Renamed", redirectUrl: null, allowedOrigins: ["https://shop.example"] });
  });
});

describe("the console principal's merchant", () => {
  it("is read with the session, use noted, every membership with its two-step policy, in one statement", async () => {
    const db = await getDb();
    const [first, second] = [await createMerchant(), await createMerchant()];
    const member = await createConsoleUser([
      { merchant: first, role: "viewer" },
      { merchant: second, role: "owner" },
    ]);
    await setTwoStepRequirement(db, {
      actor: { userId: member.id, email: member.email, ip: null },
      serviceId: await serviceIdOf(second),
      required: true,
    });
    const session = await consoleSessionOf(member.id);
    const statements: string[] = [];
    const stop = onQuery((query) => statements.push(query));
    const principal = await authenticateConsole(db, { sessionToken: session.token });
    stop();
    expect(statements).toHaveLength(1);
    expect(principal?.memberships).toEqual(await listMemberships(db, member.id));
    expect(
      principal?.memberships.map((membership) => [
        membership.merchantName,
        membership.role,
        membership.requiresTwoStep,
      ]),
    ).toEqual(
      expect.arrayContaining([
        [first.name, "viewer", false],
        [second.name, "owner", true],
      ]),
    );
  });

  it("is the member's service as the API's principals carry it", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const owner = await createConsoleUser([{ merchant, role: "owner" }]);
    const session = await consoleSessionOf(owner.id);
    const principal = (await authenticateConsole(db, { sessionToken: session.token }))!;
    const { consoleServiceContext } = await import("@/lib/console/access/console-principal");
    expect(await consoleServiceContext(db, principal)).toMatchObject({
      id: await serviceIdOf(merchant),
      code: merchant.service,
      name: merchant.name,
    });
  });
});
