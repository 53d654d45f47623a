/**
 * Contract 13: every action the audit log records. Other areas (payments, links, export)
 * add theirs here, so the log page's filter offers every name that can appear.
 */
export const AUDIT_ACTIONS = [
  "sign_in",
  "sign_in_failed",
  "sign_up",
  "password_changed",
  "password_reset_requested",
  "password_reset_link_created",
  "password_reset",
  "two_step_enabled",
  "two_step_disabled",
  "two_step_required",
  "two_step_not_required",
  "invitation_created",
  "invitation_accepted",
  "invitation_canceled",
  "role_changed",
  "member_removed",
  "client_secret_rolled",
  "webhook_secret_rolled",
  "settings_changed",
  "webhook_url_changed",
  "event_redelivered",
  "payment_captured",
  "payment_released",
  "payment_refunded",
  "payment_link_created",
  "payment_link_deactivated",
  "payments_exported",
  "customer_card_deleted",
  "customer_deactivated",
  "payment_method_credentials_changed",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: unknown): value is AuditAction {
  return typeof value === "string" && (AUDIT_ACTIONS as readonly string[]).includes(value);
}
