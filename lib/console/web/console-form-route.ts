import {
  authenticateConsole,
  CONSOLE_SESSION_COOKIE,
  principalMay,
  readCookie,
  type ConsolePrincipal,
} from "../access/console-principal";
import { getConfig } from "../../config";
import { isValidConsoleFormToken } from "./console-form-token";
import { setFlash, type ConsoleFlash } from "./console-flash";
import { endConsoleSessionOfToken, resolveConsoleSession, type LiveSession } from "../access/console-sessions";
import { consolePath } from "../access/console-paths";
import type { Capability } from "../access/roles";
import { getGatewayKey } from "../../crypto/gateway-key";
import { getDb, type Db } from "../../db/client";
import { ApiError } from "../../errors/api-error";
import { isCrossSitePost } from "../../hosted/form-guard";
import { clientOrigin } from "../../http/client-address";
import { formRefusedResponse } from "../../hosted/form-response";
import { NUL_CHARACTER_IN_FORM, readFormBody, type FormBody } from "../../hosted/read-form-body";
import { isLocale } from "../../i18n/locales";
import type { Locale } from "../../i18n/routing";
import { consoleRefusedResponse, consoleSeeOther } from "./console-responses";
import { sessionCookie } from "./session-cookie";

/** The field every console form carries its forgery token in. */
export const CONSOLE_FORM_TOKEN_FIELD = "formToken";

interface ActionInput {
  db: Db;
  locale: Locale;
  fields: FormBody;
  ip: string | null;
}

/** Where the browser goes next, the session cookie to set (a token) or clear (null), and what that page shows once. */
export interface ActionOutcome {
  location: string;
  session?: string | null;
  flash?: ConsoleFlash;
}

export type ConsoleAction =
  /** Sign-in, sign-up, an invitation: no session yet; guarded by the origin checks. */
  | { access: "anonymous"; act(input: ActionInput): Promise<ActionOutcome> }
  /** The code step: a session that passed the password and waits for the code. */
  | { access: "code_step"; act(input: ActionInput & { session: LiveSession }): Promise<ActionOutcome> }
  /**
   * A signed-in member. `capability` null: anything about the person (account, sign out,
   * switching merchant); those also stay open while a required two-step setup is pending.
   */
  | {
      access: "member";
      capability: Capability | null;
      act(input: ActionInput & { principal: ConsolePrincipal }): Promise<ActionOutcome>;
    };

/**
 * An Origin the browser sent that is neither the gateway's public origin nor the request's own
 * is another site's form. Chromium sends `Origin: null` for our own pages (Referrer-Policy:
 * no-referrer), which the session-bound token then decides.
 */
function fromAnotherOrigin(request: Request): boolean {
  if (isCrossSitePost(request.headers)) return true;
  const origin = request.headers.get("origin");
  if (origin === null || origin === "null") return false;
  return origin !== new URL(getConfig().publicBaseUrl).origin && origin !== new URL(request.url).origin;
}

/**
 * The POST handler of every console form, as a plain HTML form posts it: another origin is
 * refused (403), an unreadable body is a 400 page, a member's post needs its session's forgery
 * token (403 otherwise) and a role that may (403 naming the role), and another merchant's object
 * is a 404. Then the action runs and the browser is sent on with a 303.
 */
export function consoleActionRoute(actions: Readonly<Record<string, ConsoleAction>>) {
  return async function POST(
    request: Request,
    context: { params: Promise<{ locale: string; action: string }> },
  ): Promise<Response> {
    const { locale, action: name } = await context.params;
    if (!isLocale(locale)) return consoleRefusedResponse("bad_request", undefined);
    const action = Object.hasOwn(actions, name) ? actions[name] : undefined;
    if (!action) return consoleRefusedResponse("not_found", locale);
    if (fromAnotherOrigin(request)) return consoleRefusedResponse("forged", locale);
    const fields = await readFormBody(request);
    if (fields === NUL_CHARACTER_IN_FORM) return formRefusedResponse("nul_character", locale);
    if (!fields) return consoleRefusedResponse("bad_request", locale);
    const db = await getDb();
    const input = { db, locale, fields, ip: clientOrigin(request.headers).address };
    const token = readCookie(request.headers.get("cookie"), CONSOLE_SESSION_COOKIE);
    try {
      switch (action.access) {
        case "anonymous": {
          const outcome = await action.act(input);
          // A new session (sign-in, sign-up, an invitation) replaces the one the browser brought,
          // planted or stale: its token stops working.
          if (typeof outcome.session === "string" && token) await endConsoleSessionOfToken(db, token);
          return await respond(db, null, outcome);
        }
        case "code_step": {
          const session = await resolveConsoleSession(db, token);
          if (!session || session.stage !== "code") return consoleSeeOther(consolePath.signIn(locale));
          if (!isValidConsoleFormToken(await getGatewayKey(db), session.id, fields[CONSOLE_FORM_TOKEN_FIELD]))
            return consoleRefusedResponse("forged", locale);
          return await respond(db, session.id, await action.act({ ...input, session }));
        }
        case "member": {
          const principal = await authenticateConsole(db, { sessionToken: token });
          if (!principal) return consoleSeeOther(consolePath.signIn(locale));
          if (!isValidConsoleFormToken(await getGatewayKey(db), principal.sessionId, fields[CONSOLE_FORM_TOKEN_FIELD]))
            return consoleRefusedResponse("forged", locale);
          if (action.capability !== null && !principalMay(principal, action.capability)) {
            if (principal.mustSetUpTwoStep) return consoleSeeOther(consolePath.account(locale));
            return consoleRefusedResponse("forbidden", locale, action.capability);
          }
          return await respond(db, principal.sessionId, await action.act({ ...input, principal }));
        }
      }
    } catch (error) {
      // Another merchant's member, event or object: as if it did not exist (contract 13).
      if (error instanceof ApiError && error.errorName === "not_found")
        return consoleRefusedResponse("not_found", locale);
      throw error;
    }
  };
}

async function respond(db: Db, sessionId: string | null, outcome: ActionOutcome): Promise<Response> {
  if (outcome.flash && sessionId && outcome.session === undefined) await setFlash(db, sessionId, outcome.flash);
  const cookie = outcome.session === undefined ? undefined : sessionCookie(outcome.session);
  return consoleSeeOther(outcome.location, cookie);
}
