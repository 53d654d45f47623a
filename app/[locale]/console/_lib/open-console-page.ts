import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { setRequestLocale } from "next-intl/server";
import { authenticateConsole, CONSOLE_SESSION_COOKIE, principalMay, type ConsolePrincipal } from "@/lib/auth/console-principal";
import { consoleFormToken } from "@/lib/console/console-form-token";
import { takeFlash, type ConsoleFlash } from "@/lib/console/console-flash";
import { resolveConsoleSession, type LiveSession } from "@/lib/console/console-sessions";
import { consolePath } from "@/lib/console/console-paths";
import type { Capability } from "@/lib/console/roles";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { getDb, type Db } from "@/lib/db/client";
import { isLocale } from "@/lib/i18n/locales";
import type { Locale } from "@/lib/i18n/routing";

export interface ConsolePageProps {
  params: Promise<{ locale: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export interface OpenConsolePage {
  db: Db;
  locale: Locale;
  principal: ConsolePrincipal;
  formToken: string;
  /** What the last form's redirect left to show once (lib/console/console-flash.ts). */
  flash: ConsoleFlash | null;
}

export async function pageLocale(params: Promise<{ locale: string }>): Promise<Locale> {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  return locale;
}

/**
 * A signed-in console page: no session sends the browser to sign in; a merchant that requires
 * two-step verification sends a member without it to the Account page first; a role without
 * `capability` goes to the 403 page naming the role it needs (app/[locale]/console/refused/route.ts:
 * plain HTML, complete without JavaScript, which a forbidden() boundary of Next.js 16 is not).
 */
export async function openConsolePage(params: Promise<{ locale: string }>, capability: Capability | null, options: { twoStepSetup?: boolean } = {}): Promise<OpenConsolePage> {
  const locale = await pageLocale(params);
  const db = await getDb();
  const principal = await authenticateConsole(db, { sessionToken: (await cookies()).get(CONSOLE_SESSION_COOKIE)?.value ?? null });
  if (!principal) redirect(consolePath.signIn(locale));
  if (principal.mustSetUpTwoStep && !options.twoStepSetup) redirect(consolePath.account(locale));
  if (capability && !principalMay(principal, capability)) redirect(consolePath.refused(locale, capability));
  return {
    db,
    locale,
    principal,
    formToken: consoleFormToken(await getGatewayKey(db), principal.sessionId),
    flash: principal.flashWaiting ? await takeFlash(db, principal.sessionId) : null,
  };
}

/** The code step's page: a session past the password, waiting for the code. */
export async function openCodeStepPage(params: Promise<{ locale: string }>): Promise<{ locale: Locale; session: LiveSession; formToken: string }> {
  const locale = await pageLocale(params);
  const db = await getDb();
  const session = await resolveConsoleSession(db, (await cookies()).get(CONSOLE_SESSION_COOKIE)?.value ?? null);
  if (!session) redirect(consolePath.signIn(locale));
  if (session.stage === "active") redirect(consolePath.home(locale));
  return { locale, session, formToken: consoleFormToken(await getGatewayKey(db), session.id) };
}

/** A page before sign-in; someone already signed in goes to the console. */
export async function openSignedOutPage(params: Promise<{ locale: string }>): Promise<Locale> {
  const locale = await pageLocale(params);
  const db = await getDb();
  const session = await resolveConsoleSession(db, (await cookies()).get(CONSOLE_SESSION_COOKIE)?.value ?? null);
  if (session?.stage === "active") redirect(consolePath.home(locale));
  return locale;
}

export function queryValue(query: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}
