import { cookies, headers } from "next/headers";
import { notFound, redirect } from "next/navigation";
import type { ReactElement } from "react";
import { setRequestLocale } from "next-intl/server";
import { queryValue, type ConsolePage } from "@/lib/console/web/console-page";
import { CONSOLE_SESSION_COOKIE } from "@/lib/console/access/console-principal";
import { consoleFormToken } from "@/lib/console/web/console-form-token";
import { resolveConsoleSession, type LiveSession } from "@/lib/console/access/console-sessions";
import { consolePath } from "@/lib/console/access/console-paths";
import type { Capability } from "@/lib/console/access/roles";
import { openConsoleSession, type OpenConsolePage } from "@/lib/console/web/open-console-session";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { getDb } from "@/lib/db/client";
import { isLocale } from "@/lib/i18n/locales";
import type { Locale } from "@/lib/i18n/routing";

export interface ConsolePageProps {
  params: Promise<{ locale: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export type { OpenConsolePage };

export async function pageLocale(params: Promise<{ locale: string }>): Promise<Locale> {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  return locale;
}

/**
 * A signed-in console page under the App Router: the rules of lib/console/web/open-console-session.ts
 * (the console lane applies the same), its redirects as Next.js's.
 */
export async function openConsolePage(params: Promise<{ locale: string }>, capability: Capability | null, options: { twoStepSetup?: boolean } = {}): Promise<OpenConsolePage> {
  const locale = await pageLocale(params);
  const opening = await openConsoleSession(await getDb(), { locale, cookieHeader: (await headers()).get("cookie"), capability, twoStepSetup: options.twoStepSetup });
  if (opening.kind === "redirect") redirect(opening.location);
  return opening.page;
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

/** A page of app/[locale]/console/_pages under the App Router: opened by the same rules as the console lane, its null answered with notFound(). */
export async function serveConsolePage(
  page: ConsolePage,
  props: { params: Promise<{ locale: string } & Record<string, string>>; searchParams: Promise<Record<string, string | string[] | undefined>> },
): Promise<ReactElement> {
  const open = await openConsolePage(props.params, page.capability, { twoStepSetup: page.twoStepSetup });
  const element = await page.render(open, { params: await props.params, query: await props.searchParams });
  if (!element) notFound();
  return element;
}
