import { describe, expect, it } from "vitest";
import { accountPage } from "@/app/[locale]/console/_pages/account-page";
import { CONSOLE_SESSION_COOKIE, authenticateConsole } from "@/lib/console/access/console-principal";
import { pendingTwoStepSecret, startTwoStepSetup } from "@/lib/console/access/two-step-setup";
import { setTwoStepRequirement } from "@/lib/console/access/two-step-policy";
import { totpCode, totpStepAt } from "@/lib/console/access/totp";
import { getDb } from "@/lib/db/client";
import { consoleSessionOf, createConsoleUser, postForm, serviceIdOf } from "../support/console";
import { renderConsolePage, textOf } from "../support/console-pages";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";

const gateway = useTestGateway();
const tokenOf = (response: Response) =>
  new RegExp(`${CONSOLE_SESSION_COOKIE}=([^;]*)`).exec(response.headers.get("set-cookie") ?? "")?.[1];

/**
 * Issue 42: the session token is replaced at every step up. The code step of sign-in already
 * does it (tests/integration/console/two-step.test.ts); here the other step up, a two-step setup
 * the merchant requires: the member enrolls on first sign-in, and the token it had before (one
 * planted in its browser, say) must not become the full session.
 */
describe("the token a required two-step setup replaces", () => {
  it("stops working after the setup; the new one is a full session and shows the recovery codes once", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    await setTwoStepRequirement(db, {
      actor: { userId: null, email: "owner@shop.example", ip: null },
      serviceId: await serviceIdOf(merchant),
      required: true,
    });
    const member = await createConsoleUser([{ merchant, role: "developer" }]);
    // Signed in with the password only: held to the setup, as a planted cookie would be.
    const planted = await consoleSessionOf(member.id);
    const before = await authenticateConsole(db, { sessionToken: planted.token });
    expect(before?.mustSetUpTwoStep).toBe(true);

    await startTwoStepSetup(db, member.id);
    const secret = (await pendingTwoStepSecret(db, member.id))!;
    const confirmed = await postForm(
      gateway.baseUrl,
      "/en/console/actions/two-step-confirm",
      { code: totpCode(secret, totpStepAt(new Date())), formToken: planted.formToken },
      { cookie: planted.cookie },
    );
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.get("location")).toBe("/en/console/account#two-step");
    const token = tokenOf(confirmed);
    expect(token).toBeTruthy();
    expect(token).not.toBe(planted.token);

    // The planted token opens nothing now, page or form.
    expect(await authenticateConsole(db, { sessionToken: planted.token })).toBeNull();
    const replay = await postForm(
      gateway.baseUrl,
      "/en/console/actions/webhook-url",
      { webhookUrl: "https://evil.example/in", formToken: planted.formToken },
      { cookie: planted.cookie },
    );
    expect(replay.status).toBe(303);
    expect(replay.headers.get("location")).toBe("/en/console/sign-in");

    // The new one is the full session, and its first page shows the recovery codes.
    const after = await authenticateConsole(db, { sessionToken: token! });
    expect(after?.mustSetUpTwoStep).toBe(false);
    expect(after?.user.id).toBe(member.id);
    const page = textOf(
      await renderConsolePage(accountPage, {
        userId: member.id,
        locale: "en",
        session: { cookie: `${CONSOLE_SESSION_COOKIE}=${token}` },
      }),
    );
    expect(page).toMatch(/Recovery codes/);
    expect(page.match(/\b[a-z2-9]{5}-[a-z2-9]{5}\b/gi)?.length ?? 0).toBeGreaterThanOrEqual(10);
  });

  it("also replaces the token when a member turns two-step on of their own accord", async () => {
    const db = await getDb();
    const member = await createConsoleUser([{ merchant: await createMerchant(), role: "viewer" }]);
    const session = await consoleSessionOf(member.id);
    await startTwoStepSetup(db, member.id);
    const secret = (await pendingTwoStepSecret(db, member.id))!;
    const confirmed = await postForm(
      gateway.baseUrl,
      "/fr/console/actions/two-step-confirm",
      { code: totpCode(secret, totpStepAt(new Date())), formToken: session.formToken },
      { cookie: session.cookie },
    );
    expect(confirmed.status).toBe(303);
    expect(tokenOf(confirmed)).toBeTruthy();
    expect(await authenticateConsole(db, { sessionToken: session.token })).toBeNull();
    // A wrong code changes nothing: the session stays.
    const other = await createConsoleUser([{ merchant: await createMerchant(), role: "viewer" }]);
    const kept = await consoleSessionOf(other.id);
    await startTwoStepSetup(db, other.id);
    const wrong = await postForm(
      gateway.baseUrl,
      "/en/console/actions/two-step-confirm",
      { code: "000000", formToken: kept.formToken },
      { cookie: kept.cookie },
    );
    expect(wrong.headers.get("set-cookie")).toBeNull();
    expect(await authenticateConsole(db, { sessionToken: kept.token })).not.toBeNull();
  });
});
