import type { ClientPrincipal, ServiceContext } from "../../auth/principal";

/**
 * The principal a console user acts through: the merchant's service, as its server would under
 * client_auth, so the console calls the very domain operations of the API (same scoping to the
 * service, same rules). Who the user is travels separately, as the change's cause
 * (consoleCause(email)); the page layer adds the role check and the audit entry.
 */
export function clientPrincipalForConsole(service: ServiceContext): ClientPrincipal {
  return { mode: "client", service, credentialId: "console", clientId: `console:${service.id}` };
}
