import type { ReactElement } from "react";
import type { Capability } from "../access/roles";
import type { OpenConsolePage } from "./open-console-session";
import type { Locale } from "../../i18n/routing";
import { translator } from "../../i18n/translator";
import type { Db } from "../../db/client";

/** A page's URL parts: the dynamic segments by name, and the query as Next.js hands searchParams. */
export interface ConsolePageRequest {
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, string | string[] | undefined>>;
}

/**
 * A signed-in console page, served by the console lane (lib/console/web/console-lane.ts): opened
 * by the console's rules (lib/console/web/open-console-session.ts), it renders one element;
 * `null` is not found, which the lane answers with the console's not-found page.
 */
export interface ConsolePage {
  /**
   * The document's <title>: the `title` message of a namespace, in the page's language (the
   * page.tsx's generateMetadata, lib/i18n/page-title.ts). Never a text: it would be one
   * language's words on every language's page.
   */
  title: { messages: string };
  /** What the member's role must allow; null: any member. */
  capability: Capability | null;
  /** A page a member who must set up two-step verification may still open (the Account page, where it is set up). */
  twoStepSetup?: boolean;
  render(open: OpenConsolePage, request: ConsolePageRequest): Promise<ReactElement | null>;
}

/** A signed-out page's request: the page's language, the database, the browser's cookies, and its URL parts. */
export interface SignedOutPageRequest extends ConsolePageRequest {
  db: Db;
  locale: Locale;
  cookieHeader: string | null;
}

/** What a signed-out page answers: its element, `null` (not found), or a 307 to `redirect`. */
export type SignedOutPageAnswer = ReactElement | null | { redirect: string };

/**
 * A console page before sign-in (sign-in, its code step, sign-up, a password reset, an
 * invitation), served by the console lane too: no member's session opens it; the page applies its
 * own rules (lib/console/web/open-signed-out-page.ts), as someone already signed in going home.
 */
export interface SignedOutConsolePage {
  signedOut: true;
  /** As a signed-in page's: the `title` message of a namespace. */
  title: { messages: string };
  render(request: SignedOutPageRequest): Promise<SignedOutPageAnswer>;
}

/** The page's <title> in `locale`. */
export function consolePageTitle(page: { title: { messages: string } }, locale: Locale): string {
  return translator(locale, page.title.messages)("title");
}

export function queryValue(query: ConsolePageRequest["query"], name: string): string | undefined {
  const value = query[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A page the console answers with that is none of its pages: its <title> and its body. */
export interface ConsoleAnswerPage {
  title: string;
  element: ReactElement;
}

/** Where the reader is, for an answer page's language switcher: the path without its locale, and the query. */
export interface ConsoleAddress {
  path: string;
  search: string;
}

/** The console's answers that are no page of its own: not found, and a page that failed. */
export interface ConsoleAnswerPages {
  notFound(locale: Locale, address: ConsoleAddress): ConsoleAnswerPage;
  unavailable(locale: Locale, address: ConsoleAddress): ConsoleAnswerPage;
}
