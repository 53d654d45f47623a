import type { Capability } from "../access/roles";

/**
 * The console's navigation, in contract 13's order: a link is shown only to a role that may use
 * the page (lib/console/access/roles.ts), and the page itself refuses other roles with the same
 * capability.
 */
export const CONSOLE_NAV: readonly { key: string; segment: string; capability: Capability }[] = [
  { key: "payments", segment: "payments", capability: "payments.read" },
  { key: "customers", segment: "customers", capability: "payments.read" },
  { key: "paymentLinks", segment: "payment-links", capability: "payments.read" },
  { key: "developers", segment: "developers", capability: "keys.manage" },
  { key: "team", segment: "team", capability: "team.manage" },
  { key: "settings", segment: "settings", capability: "integration.manage" },
  { key: "auditLog", segment: "audit-log", capability: "team.manage" },
];

/**
 * The capability a console page needs, from its path (`/en/console/team/...`); null for pages every
 * member may open.
 */
export function capabilityOfPath(pathname: string): Capability | null {
  const segment = pathname.split("/")[3] ?? "";
  return CONSOLE_NAV.find((item) => item.segment === segment)?.capability ?? null;
}
