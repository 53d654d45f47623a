import type { AuditActor } from "../../../audit-log/record-audit-entry";
import type { ConsolePrincipal } from "../../access/console-principal";

export function actorOf(principal: ConsolePrincipal, ip: string | null): AuditActor & { userId: string } {
  return { userId: principal.user.id, email: principal.user.email, ip };
}

/** The merchant a member acts for; the route has checked there is one (a capability needs a membership). */
export function serviceOf(principal: ConsolePrincipal): string {
  if (!principal.membership) throw new Error("no membership");
  return principal.membership.serviceId;
}
