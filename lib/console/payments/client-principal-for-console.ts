import type { ClientPrincipal, ServiceContext } from "../../auth/principal";

/**
 * The client principal a console user acts through: the merchant's service, as its server would
 * under client_auth, so the console calls the very domain operations of the API (same scoping to
 * the service, same rules). Not the person signed in (that is the ConsolePrincipal of
 * lib/console/access/console-principal.ts, from the session cookie): who the user is travels
 * separately, as the change's cause (consoleCause(email)); the page layer adds the role check and
 * the audit entry.
 */
export function clientPrincipalForConsole(service: ServiceContext): ClientPrincipal {
  return { mode: "client", service, credentialId: "console", clientId: `console:${service.id}` };
}
