import path from "node:path";
import { randomInt } from "node:crypto";
import type { Page } from "@playwright/test";
import { createTranslator } from "use-intl/core";
import { totpCode, totpStepAt, TOTP_PERIOD_SECONDS } from "../../lib/console/access/totp";
import { expect } from "./fixtures";
import { catalogueOf, type PageLocale } from "./messages";

/** The console's words in each language (messages/console/<locale>.json). */
export function consoleMessagesFor(
  locale: PageLocale,
): (key: string, values?: Record<string, string | number>) => string {
  const t = createTranslator({
    locale,
    messages: catalogueOf(locale, [`console/${locale}.json`]),
    namespace: "console",
  });
  return (key, values) =>
    (t as unknown as (key: string, values?: Record<string, string | number>) => string)(key, values);
}

/** The console's payment pages' words (messages/console/<locale>.json, `consolePayments`). */
export function consolePaymentsText(
  locale: PageLocale,
): (key: string, values?: Record<string, string | number>) => string {
  const t = createTranslator({
    locale,
    messages: catalogueOf(locale, [`console/${locale}.json`]),
    namespace: "consolePayments",
  });
  return (key, values) =>
    (t as unknown as (key: string, values?: Record<string, string | number>) => string)(key, values);
}

/** The console's words for a refused field or operation (messages/console/<locale>.json, `consoleProblems`). */
export function consoleProblemsFor(
  locale: PageLocale,
): (key: string, values?: Record<string, string | number>) => string {
  const t = createTranslator({
    locale,
    messages: catalogueOf(locale, [`console/${locale}.json`]),
    namespace: "consoleProblems",
  });
  return (key, values) =>
    (t as unknown as (key: string, values?: Record<string, string | number>) => string)(key, values);
}

export const CONSOLE_PASSWORD = "a console password 42";

export function newEmail(label: string): string {
  return `${label}-${Date.now()}-${randomInt(1e6)}@shop.example`;
}

/** Signs up in English (contract 13's names) and lands on the new merchant's Developers page. */
export async function signUp(page: Page, options: { email?: string; business?: string; locale?: PageLocale } = {}) {
  const locale = options.locale ?? "en";
  const t = consoleMessagesFor(locale);
  const email = options.email ?? newEmail("owner");
  await page.goto(`/${locale}/console/sign-up`);
  await page.getByLabel(t("signUp.name"), { exact: true }).fill("Amina Owner");
  await page.getByLabel(t("signUp.email"), { exact: true }).fill(email);
  await page.getByLabel(t("signUp.password"), { exact: true }).fill(CONSOLE_PASSWORD);
  await page
    .getByLabel(t("signUp.businessName"), { exact: true })
    .fill(options.business ?? `Console Shop ${randomInt(1e6)}`);
  await page.getByRole("button", { name: t("signUp.submit") }).click();
  // The first page is the home (issue 42); the keys are on Developers.
  await expect(page.getByRole("heading", { level: 1, name: t("home.title", { name: "Amina Owner" }) })).toBeVisible();
  await page.goto(`/${locale}/console/developers`);
  await expect(page.getByRole("heading", { level: 1, name: t("developers.title") })).toBeVisible();
  return { email };
}

export async function signIn(page: Page, email: string, password = CONSOLE_PASSWORD) {
  await page.goto("/en/console/sign-in");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

export async function signOut(page: Page) {
  // Under 40rem "Sign out" sits behind the header's menu (a <details>); wider, it is in the bar.
  const signOutButton = page.getByRole("button", { name: "Sign out" });
  if (!(await signOutButton.isVisible())) await page.locator("header details summary").click();
  await signOutButton.click();
  await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
}

/** The code an authenticator app shows `stepsAhead` steps from now (the gateway accepts one step of drift). */
export function authenticatorCode(secret: string, stepsAhead = 0): string {
  return totpCode(secret, totpStepAt(new Date()) + stepsAhead);
}

export { TOTP_PERIOD_SECONDS };

/** `npm run merchant -- invite ... --json` on the running server's database (contract 13). */
export async function inviteThroughCli(clientId: string, email: string, role: string): Promise<string> {
  const { execFile } = await import("node:child_process");
  const { promisify } = await import("node:util");
  const { BASE_URL, E2E_DATABASE_URL } = await import("./env");
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/merchant.ts",
      "invite",
      "--client-id",
      clientId,
      "--email",
      email,
      "--role",
      role,
      "--json",
    ],
    {
      cwd: path.resolve(import.meta.dirname, "../.."),
      env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL, PUBLIC_BASE_URL: BASE_URL, LOG_LEVEL: "silent" },
    },
  );
  return (JSON.parse(stdout.trim().split("\n").at(-1)!) as { inviteUrl: string }).inviteUrl;
}

/** Rolls a secret on the Developers page the way a member does: the link, then its confirmation (contract 13). */
export async function rollSecret(page: Page, secret: "client" | "webhook", locale: PageLocale = "en") {
  const t = consoleMessagesFor(locale);
  await page
    .getByRole("link", {
      name: t(secret === "client" ? "developers.rollClientSecret" : "developers.rollWebhookSecret"),
      exact: true,
    })
    .click();
  await page.getByRole("button", { name: t("developers.confirmRoll.submit"), exact: true }).click();
  await expect(page.getByLabel(t("developers.newSecret"))).toBeVisible();
}
