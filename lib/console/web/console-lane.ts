import type { IncomingMessage, ServerResponse } from "node:http";
import { renderToString } from "react-dom/server";
import { consolePageTitle, type ConsolePage } from "./console-page";
import { openConsoleSession } from "./open-console-session";
import { getDb } from "../../db/client";
import { logger } from "../../log";
import { PAGE_ICON_URL } from "../../hosted/page-icon";
import { logPageRequest } from "../../hosted/log-page-request";
import { isLocale, textDirection } from "../../i18n/locales";
import type { Locale } from "../../i18n/routing";
import { newNonce } from "../../http/security-headers";
import { pageAnswerHeaders, pageContentSecurityPolicy } from "../../hosted/page-headers";
import { clientOrigin } from "../../http/client-address";
import { targetHasNulCharacter } from "../../validation/nul-character";

/*
 * The console lane (`npm start` and `npm run dev`, server/door.mjs): a GET of a signed-in console page goes to
 * its page of app/[locale]/console/_pages, rendered with react-dom/server, instead of through the
 * App Router's page pipeline (the RSC render, HTML from it, the payload inlined and then stripped
 * by server/defer-page-scripts.mjs), which cost four fifths of a console page's CPU (issue 32).
 * The page is opened by the same rules as the console's other pages (lib/console/web/open-console-session.ts); the lane does what Next.js
 * and proxy.ts did around it:
 *
 * - the document: <html lang dir>, the charset and viewport, the console's stylesheet (app/globals.css
 *   compiled by server/build-lanes.mjs into the bundle, served by the lane itself under a name
 *   that changes with its content), the page's metadata title, robots noindex, the icon, the
 *   no-client-runtime mark;
 * - the answer's headers: proxy.ts's (a fresh nonce's CSP, the hosted pages' set, no-store, the
 *   request id, HSTS); the page-request log line;
 * - a session's redirects (sign in, account, refused) as 307s with their Location.
 *
 * A page the lane does not answer as Next.js would goes to Next.js: not found (the App Router's
 * 404 page, which Next.js renders anew), an error thrown before the answer started, HEAD, a
 * trailing slash, encoded characters, a path no page of the lane serves.
 * tests/integration/console-door.test.ts holds the pages' answers to the console's rules.
 */

/** Segments of unreserved and sub-delimiter characters only: nothing Next.js would decode or normalize. */
const PLAIN_PATH = /^(?:\/(?!\.\.?(?:\/|$))[A-Za-z0-9._~!$&'()*+,;=:@-]+)+$/;
const CONSOLE_PATH = /^\/([a-z]{2})\/console(?:\/(.*))?$/;

export interface ConsoleLaneOptions {
  /** The pages by their directory under app/[locale]/console: "" is the home, "payments/[paymentId]" a payment. */
  pages: Readonly<Record<string, ConsolePage>>;
  /** Every directory under app/[locale]/console: a path that is one (payments/export) is only ever that route. */
  appDirectories: readonly string[];
  /** The console's stylesheet (server/build-lanes.mjs compiles it): the lane serves `css` at `href`, named by its content. */
  stylesheet: { href: string; css: string };
}

/** Hands the request to Next.js, as if the lane had never seen it. */
export type HandToNext = () => void;

interface MatchedPage {
  key: string;
  page: ConsolePage;
  params: Record<string, string>;
}

/**
 * The lane's request listener: takes a request it serves and returns true (handing it to Next.js
 * later, through `handToNext`, if it turns out not to answer it), or returns false at once,
 * having touched nothing.
 */
export function createConsoleLane(options: ConsoleLaneOptions) {
  const routes = Object.entries(options.pages).map(([key, page]) => ({ key, page, segments: key === "" ? [] : key.split("/") }));
  const directories = new Set(options.appDirectories);
  const stylesheetLink = `<link rel="stylesheet" href="${escapeHtml(options.stylesheet.href)}"/>`;
  const stylesheetBytes = Buffer.from(options.stylesheet.css);

  const match = (rest: string): MatchedPage | null => {
    const segments = rest === "" ? [] : rest.split("/");
    for (const route of routes) {
      if (route.segments.length !== segments.length) continue;
      const params: Record<string, string> = {};
      const dynamic = route.segments.some((segment, index) => {
        const name = /^\[(\w+)\]$/.exec(segment)?.[1];
        if (name) params[name] = segments[index]!;
        return name !== undefined;
      });
      // A directory of the app (payments/export) is its own route, never a dynamic page's value.
      if (dynamic && directories.has(rest)) continue;
      if (route.segments.every((segment, index) => segment.startsWith("[") || segment === segments[index])) return { key: route.key, page: route.page, params };
    }
    return null;
  };

  return function serveConsoleLane(incoming: IncomingMessage, outgoing: ServerResponse, handToNext: HandToNext): boolean {
    if (incoming.method !== "GET") return false;
    const target = incoming.url ?? "";
    const queryAt = target.indexOf("?");
    const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
    if (pathname === options.stylesheet.href) {
      serveStylesheet(outgoing, stylesheetBytes);
      return true;
    }
    const parts = CONSOLE_PATH.exec(pathname);
    if (!parts || !isLocale(parts[1]) || !PLAIN_PATH.test(pathname) || pathname.endsWith("/")) return false;
    // proxy.ts answers it (400) under Next.js: one rule for a %00 in any page's query.
    if (targetHasNulCharacter(target)) return false;
    const matched = match(parts[2] ?? "");
    if (!matched) return false;
    const locale = parts[1];
    const search = queryAt === -1 ? "" : target.slice(queryAt + 1);
    answer(incoming, outgoing, { locale, pathname, search, matched, styles: stylesheetLink }).then(
      (answered) => answered || handToNext(),
      (error: unknown) => {
        // Said, not swallowed: the page is rendered a second time by Next.js, and a one-time
        // message (a new secret, recovery codes) the lane took is not shown again.
        logger.error({ path: pathname, err: error instanceof Error ? error.message : String(error) }, "console lane: the page failed; handed to Next.js");
        if (!outgoing.headersSent) handToNext();
        else outgoing.destroy(error as Error);
      },
    );
    return true;
  };
}

async function answer(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  request: { locale: Locale; pathname: string; search: string; matched: MatchedPage; styles: string },
): Promise<boolean> {
  const { locale, matched } = request;
  const opening = await openConsoleSession(await getDb(), {
    locale,
    cookieHeader: incoming.headers.cookie ?? null,
    capability: matched.page.capability,
    twoStepSetup: matched.page.twoStepSetup,
  });
  let html: Buffer | null = null;
  if (opening.kind === "open") {
    const element = await matched.page.render(opening.page, { params: matched.params, query: queryOf(request.search) });
    if (element === null) return false;
    // Rendered before any header is set: a render that throws leaves the answer untouched for Next.js.
    html = Buffer.from(documentOf(locale, consolePageTitle(matched.page, locale), request.styles, renderToString(element)));
  }
  const requestId = logPageRequest({ method: "GET", path: request.pathname, requestIdHeader: headerValue(incoming.headers["x-request-id"]) });
  const csp = pageContentSecurityPolicy(request.pathname, newNonce(), clientOrigin(incoming.headers).https);
  const headers = pageAnswerHeaders(csp, requestId);
  for (const name of Object.keys(headers).sort()) outgoing.setHeader(name.toLowerCase(), headers[name]!);
  outgoing.setHeader("content-type", "text/html; charset=utf-8");
  if (opening.kind === "redirect") {
    outgoing.statusCode = 307;
    outgoing.setHeader("location", opening.location);
    outgoing.setHeader("content-length", 0);
    outgoing.end();
    return true;
  }
  outgoing.statusCode = 200;
  outgoing.setHeader("content-length", html!.length);
  outgoing.end(html);
  return true;
}

/** The query as Next.js hands a page its searchParams: a name given more than once is an array. */
function queryOf(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const earlier = Object.hasOwn(query, name) ? query[name] : undefined;
    query[name] = earlier === undefined ? value : Array.isArray(earlier) ? [...earlier, value] : [earlier, value];
  }
  return query;
}

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

/** What React hoists ahead of a body rendered alone (the no-client-runtime <meta>): it belongs in the head, last, as Next.js puts it. */
const LEADING_META_TAGS = /^(?:<meta [^>]*\/>)*/;

/** The document as the App Router writes it for these pages, less its runtime (which server/defer-page-scripts.mjs strips). */
function documentOf(locale: Locale, title: string, styles: string, body: string): string {
  const hoistedMetaTags = LEADING_META_TAGS.exec(body)![0];
  return (
    `<!DOCTYPE html><html lang="${locale}" dir="${textDirection(locale)}"><head><meta charSet="utf-8"/>` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"/>${styles}<title>${escapeHtml(title)}</title>` +
    `<meta name="robots" content="noindex, nofollow"/><link rel="icon" href="${PAGE_ICON_URL}" type="image/svg+xml"/>${hoistedMetaTags}</head>` +
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
