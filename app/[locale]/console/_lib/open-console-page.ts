import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { setRequestLocale } from "next-intl/server";
import { queryValue } from "@/lib/console/web/console-page";
import { CONSOLE_SESSION_COOKIE } from "@/lib/console/access/console-principal";
import { consoleFormToken } from "@/lib/console/web/console-form-token";
import { resolveConsoleSession, type LiveSession } from "@/lib/console/access/console-sessions";
import { consolePath } from "@/lib/console/access/console-paths";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { getDb } from "@/lib/db/client";
import { isLocale } from "@/lib/i18n/locales";
import type { Locale } from "@/lib/i18n/routing";

export interface ConsolePageProps {
  params: Promise<{ locale: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export async function pageLocale(params: Promise<{ locale: string }>): Promise<Locale> {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  return locale;
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

export { queryValue };
