import { basicBearer } from "../lib/auth/detect-credential";
import { BASE_URL } from "./support/env";
import { expect, test } from "./support/fixtures";
import {
  authenticatorCode,
  CONSOLE_PASSWORD,
  inviteThroughCli,
  newEmail,
  rollSecret,
  signIn,
  signOut,
  signUp,
} from "./support/console";
import { onboardMerchant } from "./support/onboard";

// Contract 13: the console's journeys, with JavaScript and without (every action is a plain form post).
for (const javaScriptEnabled of [true, false]) {
  test.describe(`console journeys ${javaScriptEnabled ? "with" : "without"} JavaScript`, () => {
    test.use({ javaScriptEnabled });

    test("sign-up: a sandbox merchant, keys on Developers; a rolled secret works at once, the old one stops", async ({
      page,
      request,
    }) => {
      await signUp(page);
      const clientId = await page.getByLabel("Client id").inputValue();
      expect(clientId).toMatch(/^[a-z0-9-]+\.[a-z0-9-]+\.[0-9A-Z]{26}$/);
      await expect(page.getByLabel("Publishable key")).toHaveValue(/^pk_service_/);

      await rollSecret(page, "client");
      const first = await page.getByLabel("New secret").inputValue();
      const events = (secret: string) =>
        request.get(`${BASE_URL}/api/v1/events`, { headers: { authorization: basicBearer(clientId, secret) } });
      expect((await events(first)).status()).toBe(200);

      await rollSecret(page, "client");
      const second = await page.getByLabel("New secret").inputValue();
      expect(second).not.toBe(first);
      expect((await events(first)).status()).toBe(401);
      expect((await events(second)).status()).toBe(200);
      // Shown once: a reload no longer has it.
      await page.reload();
      await expect(page.getByLabel("New secret")).toHaveCount(0);

      await rollSecret(page, "webhook");
      await expect(page.getByLabel("New secret")).toHaveValue(/^whsec_/);
    });

    test("an owner invites a developer, who joins with a name and password and sees what a developer may use", async ({
      page,
      browser,
    }) => {
      await signUp(page);
      await page.getByRole("link", { name: "Team" }).click();
      const invitee = newEmail("developer");
      await page.getByLabel("Email", { exact: true }).fill(invitee);
      await page.getByLabel("Role").selectOption({ label: "Developer" });
      await page.getByRole("button", { name: "Invite" }).click();
      const link = await page.getByLabel("Invitation link").inputValue();
      expect(link).toMatch(/\/console\/invitations\//);

      const other = await browser.newContext({ javaScriptEnabled, locale: "en-US" });
      const guest = await other.newPage();
      await guest.goto(link);
      await guest.getByLabel("Name", { exact: true }).fill("Dev Eloper");
      await guest.getByLabel("Password", { exact: true }).fill(CONSOLE_PASSWORD);
      await guest.getByRole("button", { name: "Accept invitation" }).click();
      const nav = guest.getByRole("navigation", { name: "Console" });
      await expect(nav.getByRole("link", { name: "Developers" })).toBeVisible();
      await expect(nav.getByRole("link", { name: "Settings" })).toBeVisible();
      await expect(nav.getByRole("link", { name: "Team" })).toHaveCount(0);
      await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(0);
      // The Team page is an owner's: 403.
      expect((await guest.goto("/en/console/team"))?.status()).toBe(403);
      await expect(guest.getByText("This needs the role Owner")).toBeVisible();

      // The link worked once.
      await guest.goto(link);
      await expect(
        guest.getByRole("heading", { level: 1, name: "This invitation link no longer works" }),
      ).toBeVisible();
      await other.close();

      // The owner's audit log has the invitation and its acceptance.
      await page.goto("/en/console/audit-log");
      await expect(page.getByRole("cell", { name: "Invitation sent" })).toBeVisible();
      await expect(page.getByRole("cell", { name: "Invitation accepted" })).toBeVisible();
    });

    test("two-step verification on, then sign-in asks for a code: a current one, or a recovery code once", async ({
      page,
    }) => {
      const { email } = await signUp(page);
      await page.goto("/en/console/account");
      await page.getByRole("button", { name: "Turn on two-step verification" }).click();
      await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
      const secret = await page.getByLabel("Secret key").inputValue();
      await page.getByLabel("Authentication code").fill(authenticatorCode(secret));
      await page.getByRole("button", { name: "Verify" }).click();
      const codes = page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem");
      await expect(codes).toHaveCount(10);
      const recovery = await codes.allInnerTexts();

      await signOut(page);
      await signIn(page, email);
      await expect(page.getByLabel("Authentication code")).toBeVisible();
      // The setup's code was used; the app's next one is accepted (one step of drift).
      await page.getByLabel("Authentication code").fill(authenticatorCode(secret, 1));
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

      await signOut(page);
      await signIn(page, email);
      await page.getByLabel("Authentication code").fill(recovery[0]!.trim());
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();

      await signOut(page);
      await signIn(page, email);
      await page.getByLabel("Authentication code").fill(recovery[0]!.trim());
      await page.getByRole("button", { name: "Verify" }).click();
      await expect(page.getByText("This code is not valid, or it was already used.")).toBeVisible();
    });

    test("a wrong password and an unknown email get the same answer", async ({ page }) => {
      const { email } = await signUp(page);
      await signOut(page);
      await signIn(page, email, "not the password at all");
      // The page's own alert, in its main.
      const wrong = await page.getByRole("main").getByRole("alert").innerText();
      await signIn(page, newEmail("nobody"), "not the password at all");
      expect(await page.getByRole("main").getByRole("alert").innerText()).toBe(wrong);
      expect(wrong).toBe("The email or the password is not right.");
    });
  });
}

test("the session cookie is HttpOnly and SameSite=Lax", async ({ page, context }) => {
  await signUp(page);
  const cookie = (await context.cookies()).find((candidate) => candidate.name === "gw_console_session");
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax" });
});

for (const javaScriptEnabled of [true, false]) {
  test(`one person in two merchants switches merchant ${javaScriptEnabled ? "with" : "without"} JavaScript`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled, locale: "en-US" });
    const page = await context.newPage();
    const business = `Switch Shop ${Date.now()}`;
    const { email } = await signUp(page, { business });
    const other = await onboardMerchant({ name: `Second Shop ${Date.now()}` });
    const link = await inviteThroughCli(other.clientId, email, "viewer");

    // Already a user: the invitation asks for the password only.
    await page.goto(link);
    await expect(page.getByLabel("Name", { exact: true })).toHaveCount(0);
    await page.getByLabel("Password", { exact: true }).fill(CONSOLE_PASSWORD);
    await page.getByRole("button", { name: "Accept invitation" }).click();
    await expect(page.getByText(`Your role at ${other.name}: Viewer`)).toBeVisible();
    await expect(
      page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Developers" }),
    ).toHaveCount(0);

    await page.getByRole("combobox", { name: "Merchant" }).selectOption({ label: business });
    await page.getByRole("button", { name: "Switch" }).click();
    await expect(page.getByText(`Your role at ${business}: Owner`)).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Console" }).getByRole("link", { name: "Team" })).toBeVisible();
    await context.close();
  });
}
