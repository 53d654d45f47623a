import { getConfig } from "../config";
import type { Locale } from "../i18n/routing";

// Every payment link URL shape (contract 14) in one module. A link's public `url` carries no
// locale: `/l/{id}` picks the buyer's language (Accept-Language), else the link's own, and
// sends the buyer on to `/{locale}/l/{id}`. Short on purpose: it is typed, pasted into chats
// and encoded in a QR code, where every character makes the code denser.

const segment = (linkId: string) => `/l/${encodeURIComponent(linkId)}`;

/** The link's `url`, shared with buyers. */
export function paymentLinkUrl(linkId: string): string {
  return `${getConfig().publicBaseUrl}${segment(linkId)}`;
}

/** The link's `qrImageUrl`: a PNG QR code of its `url`. */
export function paymentLinkQrImageUrl(linkId: string): string {
  return `${getConfig().publicBaseUrl}${segment(linkId)}/qr.png`;
}

/** The link page without its locale segment (the language switcher puts each language in front). */
export function paymentLinkPathWithoutLocale(linkId: string): string {
  return segment(linkId);
}

/** What the link page says after its form was refused (the 303 carries it in the query). */
export interface PaymentLinkFormEcho {
  /** The buyer's entries, shown again: amount, phone, method. */
  amount?: string;
  phone?: string;
  method?: string;
  /** field:problem pairs, e.g. `amount:below_min`. */
  errors?: string[];
}

export function paymentLinkPagePath(options: { locale: Locale; linkId: string } & PaymentLinkFormEcho): string {
  const query = new URLSearchParams();
  if (options.amount) query.set("amount", options.amount);
  if (options.phone) query.set("phone", options.phone);
  if (options.method) query.set("method", options.method);
  if (options.errors?.length) query.set("errors", options.errors.join(","));
  const search = query.toString();
  return `/${options.locale}${segment(options.linkId)}${search ? `?${search}` : ""}`;
}

/** Where the link page's form posts. */
export function paymentLinkFormPath(options: { locale: Locale; linkId: string }): string {
  return `/${options.locale}${segment(options.linkId)}/pay`;
}

/** The 410 page of a link that no longer takes payments, in a language. */
export function paymentLinkClosedPath(options: { locale: Locale; linkId: string }): string {
  return `/${options.locale}${segment(options.linkId)}/closed`;
}
