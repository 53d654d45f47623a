import { returnPagePath, type HostedLinkOptions } from "../../urls/hosted-urls";

/** A payment page that renders nothing itself: not found, or on to another page. */
export type PageRedirectOrNotFound = { kind: "not_found" } | { kind: "redirect"; location: string };

/**
 * The OTP and QR pages alike: a payment the page does not serve is not found (as a wrong token
 * is), and a settled one goes to the return page, which tells how it ended.
 */
export function notFoundOrToReturnPage(
  mode: "unavailable" | "finished",
  link: HostedLinkOptions,
): PageRedirectOrNotFound {
  return mode === "unavailable" ? { kind: "not_found" } : { kind: "redirect", location: returnPagePath(link) };
}
