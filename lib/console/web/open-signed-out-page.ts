import { CONSOLE_SESSION_COOKIE, readCookie } from "../access/console-principal";
import { consolePath } from "../access/console-paths";
import { resolveConsoleSession } from "../access/console-sessions";
import { consoleFormToken } from "./console-form-token";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { SignedOutPageRequest } from "./console-page";

/** A page before sign-in: someone already signed in goes to the console (the location), anyone else stays (null). */
export async function signedInRedirect({ db, locale, cookieHeader }: SignedOutPageRequest): Promise<string | null> {
  const session = await resolveConsoleSession(db, readCookie(cookieHeader, CONSOLE_SESSION_COOKIE));
  return session?.stage === "active" ? consolePath.home(locale) : null;
}

/**
 * The code step's page: a session past the password, waiting for the code, gets its forms' token;
 * any other goes to sign in or home.
 */
export async function openCodeStep({
  db,
  locale,
  cookieHeader,
}: SignedOutPageRequest): Promise<{ redirect: string } | { formToken: string }> {
  const session = await resolveConsoleSession(db, readCookie(cookieHeader, CONSOLE_SESSION_COOKIE));
  if (!session) return { redirect: consolePath.signIn(locale) };
  if (session.stage === "active") return { redirect: consolePath.home(locale) };
  return { formToken: consoleFormToken(await getGatewayKey(db), session.id) };
}
