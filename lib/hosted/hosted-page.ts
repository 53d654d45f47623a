import type { ReactElement } from "react";
import type { Locale } from "../i18n/routing";

/** A hosted page's URL parts: the dynamic segment by name, and the query as the App Router handed searchParams. */
export interface HostedPageRequest {
  locale: Locale;
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string | string[] | undefined>>;
}

/** What the <head> says beside the charset and viewport: the title, and a payment link's preview for chat apps. */
export interface HostedPageHead {
  /** None for a page with no title of its own (a link whose preview could not be read). */
  title?: string;
  description?: string;
  openGraph?: { title: string; description?: string; url: string; locale: string };
}

/** A page's answer: the page, a 307 to another address, or the neutral not-found page (404). */
export type HostedPageAnswer =
  | { kind: "page"; head: HostedPageHead; element: ReactElement }
  | { kind: "redirect"; location: string }
  | { kind: "not_found" };

/**
 * A hosted buyer page (checkout, card, OTP, QR, the page before a provider's, return, a payment
 * link's, the sandboxes'), served by the hosted lane (lib/hosted/hosted-lane.ts) with
 * react-dom/server: it reads its view model (lib/hosted/views/) and renders one element.
 */
export interface HostedPage {
  render(request: HostedPageRequest): Promise<HostedPageAnswer>;
}

export const PAGE_NOT_FOUND: HostedPageAnswer = { kind: "not_found" };

export function redirectTo(location: string): HostedPageAnswer {
  return { kind: "redirect", location };
}
