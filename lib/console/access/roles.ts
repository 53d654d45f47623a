/**
 * Contract 13's role table, once: navigation shows a page only to a role that may use it, and
 * every console action checks the same table before it runs.
 */
export const CONSOLE_ROLES = ["owner", "developer", "support", "viewer"] as const;
export type ConsoleRole = (typeof CONSOLE_ROLES)[number];

export type Capability =
  /** See payments, customers, payment links, events; export CSV. */
  | "payments.read"
  /** Capture, release, refund. */
  | "payments.operate"
  /** Create and deactivate payment links. */
  | "payment_links.manage"
  /** See the client id and publishable key; roll the client secret or the webhook secret. */
  | "keys.manage"
  /** Webhook URL, redeliver events, redirect URL, allowed origins. */
  | "integration.manage"
  /** Team (invite, change role, remove), require two-step verification, read the audit log. */
  | "team.manage"
  /** The merchant's own settings an owner decides: its time zone. */
  | "merchant.manage";

export const CAPABILITIES_OF_ROLE: Readonly<Record<ConsoleRole, readonly Capability[]>> = {
  owner: [
    "payments.read",
    "payments.operate",
    "payment_links.manage",
    "keys.manage",
    "integration.manage",
    "team.manage",
    "merchant.manage",
  ],
  developer: ["payments.read", "payment_links.manage", "keys.manage", "integration.manage"],
  support: ["payments.read", "payments.operate", "payment_links.manage"],
  viewer: ["payments.read"],
};

export function roleMay(role: ConsoleRole, capability: Capability): boolean {
  return CAPABILITIES_OF_ROLE[role].includes(capability);
}

/** The roles a refused member would need, for the 403 page. */
export function rolesWith(capability: Capability): ConsoleRole[] {
  return CONSOLE_ROLES.filter((role) => roleMay(role, capability));
}

export function isCapability(value: unknown): value is Capability {
  return (
    typeof value === "string" &&
    Object.values(CAPABILITIES_OF_ROLE).some((capabilities) => capabilities.includes(value as Capability))
  );
}

export function isConsoleRole(value: unknown): value is ConsoleRole {
  return typeof value === "string" && (CONSOLE_ROLES as readonly string[]).includes(value);
}
