import { eq } from "drizzle-orm";
import { systemClock, type Clock } from "../../clock";
import { services } from "../../db/schema";
import type { Db } from "../../db/client";
import { resolveConsoleSessionWithMemberships, type LiveSession } from "./console-sessions";
import type { Membership } from "./memberships";
import { roleMay, type Capability } from "./roles";
import type { ServiceContext } from "../../auth/principal";
import { serviceColumns } from "../../auth/service-columns";

/**
 * The console's principal, beside the API's three modes (lib/auth/principal.ts): a person signed in with
 * the console's session cookie, acting for one of its merchants. It comes only from that
 * cookie: API credentials (Authorization) never open the console, and the API's
 * `authenticate` reads only Authorization, so a console cookie never opens the API.
 */
export interface ConsolePrincipal {
  mode: "console";
  sessionId: string;
  user: LiveSession["user"];
  /** The merchant acted for (the switcher's choice), null for a person who belongs to none. */
  membership: Membership | null;
  memberships: Membership[];
  /** The merchant requires two-step verification and this person has not set it up yet. */
  mustSetUpTwoStep: boolean;
  /** The session holds a message to show once: the page takes it (otherwise no statement is spent on it). */
  flashWaiting: boolean;
}

export const CONSOLE_SESSION_COOKIE = "gw_console_session";

export function readCookie(cookieHeader: string | null | undefined, name: string): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=") || null;
  }
  return null;
}

/**
 * The principal of a request's console cookie, or null (no cookie, ended or expired session, code
 * step pending): one statement.
 */
export async function authenticateConsole(
  db: Db,
  options: { sessionToken: string | null; clock?: Clock },
): Promise<ConsolePrincipal | null> {
  const resolved = await resolveConsoleSessionWithMemberships(db, options.sessionToken, options.clock ?? systemClock);
  if (!resolved || resolved.session.stage !== "active") return null;
  const { session, memberships } = resolved;
  const membership =
    memberships.find((candidate) => candidate.serviceId === session.activeServiceId) ?? memberships[0] ?? null;
  const mustSetUpTwoStep = membership !== null && !session.user.twoStepOn && membership.requiresTwoStep;
  return {
    mode: "console",
    sessionId: session.id,
    user: session.user,
    membership,
    memberships,
    mustSetUpTwoStep,
    flashWaiting: session.flashWaiting,
  };
}

export function principalMay(principal: ConsolePrincipal, capability: Capability): boolean {
  return principal.membership !== null && !principal.mustSetUpTwoStep && roleMay(principal.membership.role, capability);
}

/**
 * The merchant a member acts for, as the API's principals carry it, for the domain operations
 * that take a `ServiceContext` (lib/console/payments). Null for a person who belongs to none.
 */
export async function consoleServiceContext(db: Db, principal: ConsolePrincipal): Promise<ServiceContext | null> {
  if (!principal.membership) return null;
  const [service] = await db
    .select(serviceColumns)
    .from(services)
    .where(eq(services.id, principal.membership.serviceId));
  return service ?? null;
}
