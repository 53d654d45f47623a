import {
  authenticateConsole,
  CONSOLE_SESSION_COOKIE,
  principalMay,
  readCookie,
  type ConsolePrincipal,
} from "../access/console-principal";
import { consoleFormToken } from "./console-form-token";
import { takeFlash, type ConsoleFlash } from "./console-flash";
import { consolePath } from "../access/console-paths";
import type { Capability } from "../access/roles";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import type { Locale } from "../../i18n/routing";

/** A signed-in console page's request, opened: who asks, the token its forms carry, the flash to show once. */
export interface OpenConsolePage {
  db: Db;
  locale: Locale;
  principal: ConsolePrincipal;
  formToken: string;
  /** What the last form's redirect left to show once (lib/console/web/console-flash.ts). */
  flash: ConsoleFlash | null;
}

export type ConsolePageOpening = { kind: "open"; page: OpenConsolePage } | { kind: "redirect"; location: string };

/**
 * The rules of every signed-in console page, which the console lane (lib/console/web/console-lane.ts) serves:
 * no session sends the browser to sign in; a merchant that requires two-step verification sends a
 * member without it to the Account page first; a role without `capability` goes to the 403 page
 * naming the role it needs (app/[locale]/console/refused/route.ts: plain HTML, complete without
 * JavaScript, which a forbidden() boundary of Next.js 16 is not).
 */
export async function openConsoleSession(
  db: Db,
  request: { locale: Locale; cookieHeader: string | null; capability: Capability | null; twoStepSetup?: boolean },
): Promise<ConsolePageOpening> {
  const { locale, capability } = request;
  const principal = await authenticateConsole(db, {
    sessionToken: readCookie(request.cookieHeader, CONSOLE_SESSION_COOKIE),
  });
  if (!principal) return { kind: "redirect", location: consolePath.signIn(locale) };
  if (principal.mustSetUpTwoStep && !request.twoStepSetup)
    return { kind: "redirect", location: consolePath.account(locale) };
  if (capability && !principalMay(principal, capability))
    return { kind: "redirect", location: consolePath.refused(locale, capability) };
  return {
    kind: "open",
    page: {
      db,
      locale,
      principal,
      formToken: consoleFormToken(await getGatewayKey(db), principal.sessionId),
      flash: principal.flashWaiting ? await takeFlash(db, principal.sessionId) : null,
    },
  };
}
