import type { Locale } from "../../i18n/routing";

/** Every console address, relative; pages and form handlers build them here only. */
export const consolePath = {
  home: (locale: Locale) => `/${locale}/console`,
  signIn: (locale: Locale) => `/${locale}/console/sign-in`,
  codeStep: (locale: Locale) => `/${locale}/console/sign-in/code`,
  signUp: (locale: Locale) => `/${locale}/console/sign-up`,
  invitation: (locale: Locale, token: string) => `/${locale}/console/invitations/${encodeURIComponent(token)}`,
  forgotPassword: (locale: Locale) => `/${locale}/console/forgot-password`,
  resetPassword: (locale: Locale, token: string) => `/${locale}/console/reset-password/${encodeURIComponent(token)}`,
  account: (locale: Locale) => `/${locale}/console/account`,
  team: (locale: Locale) => `/${locale}/console/team`,
  paymentLinks: (locale: Locale) => `/${locale}/console/payment-links`,
  /** The payments list showing one link's payments (a filter of lib/console/payments). */
  paymentsOfLink: (locale: Locale, linkId: string) =>
    `/${locale}/console/payments?${new URLSearchParams({ paymentLinkId: linkId }).toString()}`,
  developers: (locale: Locale) => `/${locale}/console/developers`,
  event: (locale: Locale, eventId: string) => `/${locale}/console/developers/events/${encodeURIComponent(eventId)}`,
  payments: (locale: Locale) => `/${locale}/console/payments`,
  payment: (locale: Locale, paymentId: string) => `/${locale}/console/payments/${encodeURIComponent(paymentId)}`,
  paymentsExport: (locale: Locale) => `/${locale}/console/payments/export`,
  customers: (locale: Locale) => `/${locale}/console/customers`,
  customer: (locale: Locale, customerId: string) => `/${locale}/console/customers/${encodeURIComponent(customerId)}`,
  settings: (locale: Locale) => `/${locale}/console/settings`,
  auditLog: (locale: Locale) => `/${locale}/console/audit-log`,
  action: (locale: Locale, action: string) => `/${locale}/console/actions/${action}`,
  /** The 403 page a console page sends a role to that may not open it, naming the capability it needs. */
  refused: (locale: Locale, capability: string) =>
    `/${locale}/console/refused?${new URLSearchParams({ need: capability }).toString()}`,
};
