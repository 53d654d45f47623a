import type { IncomingMessage, ServerResponse } from "node:http";
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import {
  consolePageTitle,
  type ConsoleAddress,
  type ConsoleAnswerPage,
  type ConsoleAnswerPages,
  type ConsolePage,
  type SignedOutConsolePage,
} from "./console-page";
import { openConsoleSession } from "./open-console-session";
import { consoleRefusedResponse } from "./console-responses";
import { getConfig } from "../../config";
import { getDb } from "../../db/client";
import { logger } from "../../log";
import { PAGE_ICON_URL } from "../../hosted/page-icon";
import { logPageRequest } from "../../hosted/log-page-request";
import { isLocale, textDirection } from "../../i18n/locales";
import type { Locale } from "../../i18n/routing";
import { newNonce, strictTransportSecurity } from "../../http/security-headers";
import { formRefusedResponse } from "../../hosted/form-response";
import { pageAnswerHeaders, pageContentSecurityPolicy } from "../../hosted/page-headers";
import { pageSearchParams } from "../../hosted/page-search-params";
import { clientOrigin } from "../../http/client-address";
import { decodedSegments, redirectWithoutSlash } from "../../http/request-path";
import { targetHasNulCharacter } from "../../validation/nul-character";

/*
 * The console lane (`npm start` and `npm run dev`, server/door.mjs): the one door of every
 * signed-in console path. A page goes to its page of app/[locale]/console/_pages, rendered with
 * react-dom/server (the App Router's page pipeline, the RSC render and its payload, cost four
 * fifths of a console page's CPU, issue 32). The page is opened by the console's rules
 * (lib/console/web/open-console-session.ts); the lane does what a server and proxy.ts do around it:
 *
 * - the document: <html lang dir>, the charset and viewport, the console's stylesheet (app/globals.css
 *   compiled by server/build-lanes.mjs into the bundle, served by the lane itself under a name
 *   that changes with its content), the page's title, robots noindex, the icon;
 * - the answer's headers: proxy.ts's (a fresh nonce's CSP, the hosted pages' set, no-store, the
 *   request id, HSTS); the page-request log line;
 * - a session's redirects (sign in, account, refused) as 307s with their Location;
 * - HEAD as GET without the body, a trailing slash a 308 to the path without it, each segment
 *   decoded (`%2D` → `-`) before it is matched, proxy.ts's 400 pages for a %00 and for a post;
 * - not found (no such page, another merchant's payment, an address that cannot be decoded): the
 *   app's neutral 404 page in the reader's language; a page that fails: a 500 in its language.
 *
 * Next.js serves only the console's own routes of app/[locale]/console (the form actions, the
 * export, the refused page): the lane hands those paths over untouched. The pages before sign-in
 * are the lane's too (SignedOutConsolePage): they open without a member's session.
 * tests/integration/console-door.test.ts holds the door's answers to the console's rules.
 */

const CONSOLE_PATH = /^\/([a-z]{2})\/console(?:\/(.*))?$/;

export interface ConsoleLaneOptions {
  /**
   * The pages by their path under /{locale}/console: "" is the home, "payments/[paymentId]" a
   * payment, "sign-in" a page before sign-in.
   */
  pages: Readonly<Record<string, ConsolePage | SignedOutConsolePage>>;
  /** Not found and unavailable, in the reader's language. */
  answerPages: ConsoleAnswerPages;
  /**
   * The routes Next.js serves under app/[locale]/console (a directory with a page.tsx or a
   * route.ts): "refused", "actions/[action]".
   */
  nextRoutes: readonly string[];
  /**
   * The console's stylesheet (server/build-lanes.mjs compiles it): the lane serves `css` at `href`,
   * named by its content.
   */
  stylesheet: { href: string; css: string };
}

interface Route {
  key: string;
  segments: string[];
  dynamic: boolean;
}

interface MatchedPage {
  key: string;
  page: ConsolePage | SignedOutConsolePage;
  params: Record<string, string>;
}

/** What a console path is: one of the lane's pages, one of Next.js's routes, or nothing (not found). */
type Resolved = { kind: "page"; matched: MatchedPage } | { kind: "next" } | { kind: "not-found" };

function routeOf(key: string): Route {
  const segments = key === "" ? [] : key.split("/");
  return { key, segments, dynamic: segments.some((segment) => segment.startsWith("[")) };
}

/** The route's params for these segments, or null when it is not theirs. */
function paramsOf(route: Route, segments: readonly string[]): Record<string, string> | null {
  if (route.segments.length !== segments.length) return null;
  const params: Record<string, string> = {};
  for (const [index, segment] of route.segments.entries()) {
    const name = /^\[(\w+)\]$/.exec(segment)?.[1];
    if (name) params[name] = segments[index]!;
    else if (segment !== segments[index]) return null;
  }
  return params;
}

/**
 * The lane's request listener: answers every console path but Next.js's own routes and returns
 * true, or returns false at once, having touched nothing.
 */
export function createConsoleLane(options: ConsoleLaneOptions) {
  const pages = Object.keys(options.pages).map(routeOf);
  const nextRoutes = options.nextRoutes.map(routeOf);
  const stylesheetLink = `<link rel="stylesheet" href="${escapeHtml(options.stylesheet.href)}"/>`;
  const stylesheetBytes = Buffer.from(options.stylesheet.css);

  // As the App Router ranks them: a static route before a dynamic one (payments/export is never a payment's id).
  const resolve = (segments: readonly string[]): Resolved => {
    if (nextRoutes.some((route) => !route.dynamic && paramsOf(route, segments))) return { kind: "next" };
    for (const route of [...pages.filter((page) => !page.dynamic), ...pages.filter((page) => page.dynamic)]) {
      const params = paramsOf(route, segments);
      if (params) return { kind: "page", matched: { key: route.key, page: options.pages[route.key]!, params } };
    }
    if (nextRoutes.some((route) => paramsOf(route, segments))) return { kind: "next" };
    return { kind: "not-found" };
  };

  return function serveConsoleLane(incoming: IncomingMessage, outgoing: ServerResponse): boolean {
    const method = incoming.method ?? "";
    const target = incoming.url ?? "";
    const queryAt = target.indexOf("?");
    const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
    const search = queryAt === -1 ? "" : target.slice(queryAt + 1);
    if (pathname === options.stylesheet.href && (method === "GET" || method === "HEAD")) {
      serveStylesheet(outgoing, stylesheetBytes);
      return true;
    }
    const parts = CONSOLE_PATH.exec(pathname);
    if (!parts || !isLocale(parts[1])) return false;
    const locale = parts[1];
    // A trailing slash is no segment: it redirects.
    const rest = (parts[2] ?? "").replace(/\/+$/, "");
    const segments = rest === "" ? [] : decodedSegments(`/${rest}`);
    const resolved: Resolved = segments === null ? { kind: "not-found" } : resolve(segments);
    if (resolved.kind === "next") return false;
    // The slash first, as Next.js does for any page: one address per page.
    if (pathname.endsWith("/")) {
      redirectWithoutSlash(outgoing, pathname.replace(/\/+$/, "") + (queryAt === -1 ? "" : `?${search}`));
      return true;
    }
    const address = { path: pathname.slice(`/${locale}`.length), search };
    const request = { locale, pathname, search, address, styles: stylesheetLink };
    const done = (error: unknown) => {
      logger.error(
        { path: pathname, err: error instanceof Error ? error.message : String(error) },
        "console lane: the page failed",
      );
      if (outgoing.headersSent) {
        outgoing.destroy(error as Error);
        return;
      }
      (async () =>
        answerPage(incoming, outgoing, request, 500, options.answerPages.unavailable(locale, address)))().catch(
        (again: unknown) => outgoing.destroy(again as Error),
      );
    };
    // proxy.ts's rules, before any page runs: a %00 anywhere in the address, then a method a page does not take.
    if (targetHasNulCharacter(target)) {
      sendResponse(incoming, outgoing, withHsts(formRefusedResponse("nul_character", locale))).catch(done);
      return true;
    }
    if (method !== "GET" && method !== "HEAD") {
      sendResponse(incoming, outgoing, withHsts(consoleRefusedResponse("bad_request", locale))).catch(done);
      return true;
    }
    // The page's route template for its metrics and log line (the door's observePage reads it).
    if (resolved.kind === "page") {
      (outgoing as { gatewayRoute?: string }).gatewayRoute =
        `/[locale]/console${resolved.matched.key ? `/${resolved.matched.key}` : ""}`;
    }
    const answered = async () =>
      resolved.kind === "page"
        ? answer(incoming, outgoing, { ...request, matched: resolved.matched }, options.answerPages)
        : answerPage(incoming, outgoing, request, 404, options.answerPages.notFound(locale, address));
    answered().catch(done);
    return true;
  };
}

function withHsts(response: Response): Response {
  if (getConfig().sendsHsts) response.headers.set("strict-transport-security", strictTransportSecurity);
  return response;
}

/** A Web Response (a plain refusal page) written whole, with its length. */
async function sendResponse(incoming: IncomingMessage, outgoing: ServerResponse, response: Response): Promise<void> {
  const body = Buffer.from(await response.arrayBuffer());
  outgoing.statusCode = response.status;
  response.headers.forEach((value, name) => {
    if (name !== "content-length") outgoing.setHeader(name, value);
  });
  outgoing.setHeader("content-length", body.length);
  outgoing.end(incoming.method === "HEAD" ? undefined : body);
}

interface PageRequest {
  locale: Locale;
  pathname: string;
  search: string;
  address: ConsoleAddress;
  styles: string;
}

async function answer(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  request: PageRequest & { matched: MatchedPage },
  answerPages: ConsoleAnswerPages,
): Promise<void> {
  const { locale, matched } = request;
  if ("signedOut" in matched.page) {
    await answerSignedOut(incoming, outgoing, { ...request, matched }, matched.page, answerPages);
    return;
  }
  const opening = await openConsoleSession(await getDb(), {
    locale,
    cookieHeader: incoming.headers.cookie ?? null,
    capability: matched.page.capability,
    twoStepSetup: matched.page.twoStepSetup,
  });
  if (opening.kind === "redirect") {
    redirectPage(incoming, outgoing, request, opening.location);
    return;
  }
  const element = await matched.page.render(opening.page, {
    params: matched.params,
    query: pageSearchParams(request.search),
  });
  if (element === null) {
    await answerPage(incoming, outgoing, request, 404, answerPages.notFound(locale, request.address));
    return;
  }
  await answerPage(incoming, outgoing, request, 200, { title: consolePageTitle(matched.page, locale), element });
}

/**
 * A page before sign-in: no member's session opens it; it answers with its element, not found, or a
 * redirect of its own rules.
 */
async function answerSignedOut(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  request: PageRequest & { matched: MatchedPage },
  page: SignedOutConsolePage,
  answerPages: ConsoleAnswerPages,
): Promise<void> {
  const { locale, matched } = request;
  const answered = await page.render({
    db: await getDb(),
    locale,
    cookieHeader: incoming.headers.cookie ?? null,
    params: matched.params,
    query: pageSearchParams(request.search),
  });
  if (answered === null)
    await answerPage(incoming, outgoing, request, 404, answerPages.notFound(locale, request.address));
  else if ("redirect" in answered) redirectPage(incoming, outgoing, request, answered.redirect);
  else await answerPage(incoming, outgoing, request, 200, { title: consolePageTitle(page, locale), element: answered });
}

/** A 307 to `location`, with a page's headers (the session's redirects, as Next.js's redirect() answers). */
function redirectPage(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  request: PageRequest,
  location: string,
): void {
  writePageHead(incoming, outgoing, request);
  outgoing.statusCode = 307;
  outgoing.setHeader("location", location);
  outgoing.setHeader("content-length", 0);
  outgoing.end();
}

/**
 * A page in the console's document, rendered before any header is set (a render that throws leaves
 * the answer untouched).
 */
async function answerPage(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  request: PageRequest,
  status: number,
  page: ConsoleAnswerPage,
): Promise<void> {
  const html = Buffer.from(documentOf(request.locale, page.title, request.styles, renderToString(page.element)));
  writePageHead(incoming, outgoing, request);
  outgoing.statusCode = status;
  outgoing.setHeader("content-length", html.length);
  outgoing.end(incoming.method === "HEAD" ? undefined : html);
}

/** proxy.ts's headers of a page answer, and its log line. */
function writePageHead(incoming: IncomingMessage, outgoing: ServerResponse, request: PageRequest): void {
  const requestId = logPageRequest({
    method: incoming.method ?? "GET",
    path: request.pathname,
    requestIdHeader: headerValue(incoming.headers["x-request-id"]),
  });
  const csp = pageContentSecurityPolicy(request.pathname, newNonce(), clientOrigin(incoming.headers).https);
  const headers = pageAnswerHeaders(csp, requestId);
  for (const name of Object.keys(headers).sort()) outgoing.setHeader(name.toLowerCase(), headers[name]!);
  outgoing.setHeader("content-type", "text/html; charset=utf-8");
}

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/**
 * What React hoists ahead of a body rendered alone (a <meta> a page renders): it belongs in the head,
 * last, as Next.js puts it.
 */
const LEADING_META_TAGS = /^(?:<meta [^>]*\/>)*/;

/** The console's document: the App Router's for these pages, less its runtime. */
function documentOf(locale: Locale, title: string, styles: string, body: string): string {
  const hoistedMetaTags = LEADING_META_TAGS.exec(body)![0];
  return (
    `<!DOCTYPE html><html lang="${locale}" dir="${textDirection(locale)}"><head><meta charSet="utf-8"/>` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"/>${styles}` +
    `<title>${escapeHtml(title)}</title>` +
    `<meta name="robots" content="noindex, nofollow"/>` +
    `<link rel="icon" href="${PAGE_ICON_URL}" type="image/svg+xml"/>${hoistedMetaTags}</head>` +
    `<body>${body.slice(hoistedMetaTags.length)}</body></html>`
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot" }[character]};`);
}

/** The stylesheet, cached for good: its address changes with its content. */
function serveStylesheet(outgoing: ServerResponse, css: Buffer): void {
  outgoing.statusCode = 200;
  outgoing.setHeader("content-type", "text/css; charset=utf-8");
  outgoing.setHeader("cache-control", "public, max-age=31536000, immutable");
  outgoing.setHeader("x-content-type-options", "nosniff");
  outgoing.setHeader("content-length", css.length);
  outgoing.end(css);
}
