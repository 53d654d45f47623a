import type { IncomingMessage, ServerResponse } from "node:http";
import type { ReactElement } from "react";
import { renderToString } from "react-dom/server";
import type { HostedPage, HostedPageHead } from "./hosted-page";
import { renderWithNonce } from "./page-nonce";
import { pageSearchParams } from "./page-search-params";
import { logger } from "../log";
import { PAGE_ICON_URL } from "./page-icon";
import { logPageRequest } from "./log-page-request";
import { pageAnswerHeaders, pageContentSecurityPolicy } from "./page-headers";
import { isLocale, textDirection } from "../i18n/locales";
import { preferredLocale } from "../i18n/accept-language";
import { routing, type Locale } from "../i18n/routing";
import { newNonce } from "../http/security-headers";
import { clientOrigin } from "../http/client-address";
import { targetHasNulCharacter } from "../validation/nul-character";

/*
 * The hosted lane (`npm start` and `npm run dev`, server/door.mjs): a GET or HEAD of a hosted buyer
 * page (checkout, card, OTP, QR, the page before a provider's, return, a payment link's, the
 * sandbox wallet app and 3DS page) is rendered here with react-dom/server from the page's view
 * model, past Next.js's page pipeline, as Next.js documents for a custom server. The pages ship
 * no framework runtime: what they do in the browser is an island (components/islands), whose
 * script tag carries the answer's nonce. The lane writes the whole answer:
 *
 * - the document: <html lang dir>, the charset and viewport, the pages' stylesheet inlined (app/globals.css
 *   compiled by server/build-lanes.mjs, under the answer's nonce: no second request before the
 *   first paint), the title (and a payment link's preview tags), robots noindex, the icon;
 * - the headers every page answer has (lib/hosted/page-headers.ts: the CSP with a fresh nonce,
 *   the hosted pages' set, no-store, the request id, HSTS) and the page-request log line;
 * - a view's redirect (307), the neutral not-found page (404), the unavailable page (500) when a
 *   page cannot render, HEAD (the headers alone), a trailing slash (308 to the address without it),
 *   each with the page headers.
 *
 * Any other method, a path with a NUL character (proxy.ts answers 400) or an unknown language is
 * left to Next.js.
 */

/** A page by the path between the language and its one dynamic segment: "pay/checkout", "l". */
export interface HostedLanePage {
  /** The name of the dynamic segment the page reads: paymentId, id, intentId. */
  param: string;
  page: HostedPage;
}

export interface HostedLaneOptions {
  pages: Readonly<Record<string, HostedLanePage>>;
  /** The neutral page of an unknown payment, link or address (404), which never says which. */
  notFound(locale: Locale, pageUrl: string): RenderedPage;
  /** The page of a page that could not render (500: contract 12, above all the database out of reach), with a retry. */
  unavailable(locale: Locale, retryHref: string): RenderedPage;
  /** The pages' stylesheet (server/build-lanes.mjs compiles it), inlined into each page. */
  stylesheet: { css: string };
}

/** A page's head and body, to render into the document. */
export interface RenderedPage {
  head: HostedPageHead;
  element: ReactElement;
}

/** The two short addresses a buyer is sent to without a language (issue 42): served in the buyer's language at once. */
const CHECKOUT_WITHOUT_LOCALE = "pay/checkout";
const PAYMENT_LINK_WITHOUT_LOCALE = "l";

/**
 * The lane's request listener: answers a request for a hosted page and returns true, or returns
 * false at once, having touched nothing.
 */
export function createHostedLane(options: HostedLaneOptions) {
  const families = Object.keys(options.pages)
    .sort((a, b) => b.length - a.length)
    .map((family) => family.replaceAll("/", "\\/"));
  const hostedPath = new RegExp(`^\\/(?:([^/]+)\\/)?(${families.join("|")})\\/([^/]+)(\\/?)$`);

  return function serveHostedLane(incoming: IncomingMessage, outgoing: ServerResponse): boolean {
    if (incoming.method !== "GET" && incoming.method !== "HEAD") return false;
    const target = incoming.url ?? "";
    const queryAt = target.indexOf("?");
    const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
    const parts = hostedPath.exec(pathname);
    if (!parts || targetHasNulCharacter(target)) return false;
    const [, named, family, segment, slash] = parts as unknown as [string, string | undefined, string, string, string];
    const locale = localeOf(named, family, incoming.headers["accept-language"]);
    if (!locale) return false;
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      return false;
    }
    const search = queryAt === -1 ? "" : target.slice(queryAt);
    // The page's own address: without a trailing slash, which redirects to it.
    const pagePath = slash ? pathname.slice(0, -1) : pathname;
    const request = {
      incoming,
      outgoing,
      locale,
      pathname: named ? pagePath : `/${locale}${pagePath}`,
      css: options.stylesheet.css,
    };
    if (slash) {
      // With the headers of every page answer (a redirect's 307 has them too): framing, caching
      // and the Referer policy hold for the redirect as for the page it names.
      send(request, 308, null, pagePath + search);
      return true;
    }
    const { page, param } = options.pages[family]!;
    // The page's route template for its metrics and log line (the door's observePage reads it).
    (outgoing as { gatewayRoute?: string }).gatewayRoute = `${named ? "/[locale]" : ""}/${family}/[${param}]`;
    page.render({ locale, params: { [param]: value }, query: pageSearchParams(search.slice(1)) }).then(
      (answer) => {
        if (answer.kind === "redirect") return send(request, 307, null, answer.location);
        if (answer.kind === "not_found") return send(request, 404, options.notFound(locale, pathname + search));
        send(request, 200, answer);
      },
      (error: unknown) => {
        // Contract 12: above all the database out of reach; said in the page's language, never with a stack.
        logger.error(
          { path: pathname, err: error instanceof Error ? error.message : String(error) },
          "hosted lane: the page failed",
        );
        if (outgoing.headersSent) outgoing.destroy(error as Error);
        else send(request, 500, options.unavailable(locale, pathname + search));
      },
    );
    return true;
  };
}

/**
 * The page's language: the path's, or for a short address the buyer's (a checkoutUrl falls back to
 * the default; a link's url, naming none, goes to its route handler).
 */
function localeOf(named: string | undefined, family: string, acceptLanguage: string | undefined): Locale | null {
  if (named !== undefined) return isLocale(named) ? named : null;
  const asked = preferredLocale(acceptLanguage);
  if (family === CHECKOUT_WITHOUT_LOCALE) return asked ?? routing.defaultLocale;
  if (family === PAYMENT_LINK_WITHOUT_LOCALE) return asked;
  return null;
}

interface LaneRequest {
  incoming: IncomingMessage;
  outgoing: ServerResponse;
  locale: Locale;
  /** The page's path with its language, which the CSP reads (the card page's, the redirect page's). */
  pathname: string;
  css: string;
}

function send(request: LaneRequest, status: number, page: RenderedPage | null, location?: string): void {
  const { incoming, outgoing, locale } = request;
  const nonce = newNonce();
  // Rendered before any header is set: a render that throws is answered as a failed page.
  const html = page
    ? Buffer.from(
        renderWithNonce(nonce, () =>
          documentOf(locale, page.head, `<style nonce="${nonce}">${request.css}</style>`, renderToString(page.element)),
        ),
      )
    : null;
  const requestId = logPageRequest({
    method: incoming.method ?? "GET",
    path: request.pathname,
    requestIdHeader: firstValue(incoming.headers["x-request-id"]),
  });
  const csp = pageContentSecurityPolicy(request.pathname, nonce, clientOrigin(incoming.headers).https);
  const headers = pageAnswerHeaders(csp, requestId);
  for (const name of Object.keys(headers).sort()) outgoing.setHeader(name.toLowerCase(), headers[name]!);
  outgoing.setHeader("content-type", "text/html; charset=utf-8");
  outgoing.statusCode = status;
  if (location !== undefined) outgoing.setHeader("location", location);
  outgoing.setHeader("content-length", html?.length ?? 0);
  if (incoming.method === "HEAD" || html === null) outgoing.end();
  else outgoing.end(html);
}

/** A request header's first value. */
function firstValue(value: string | string[] | undefined): string | null {
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/**
 * The document as the App Router wrote it for these pages (its metadata tags in its order), with no
 * framework runtime.
 */
function documentOf(locale: Locale, head: HostedPageHead, styles: string, body: string): string {
  const meta = (name: string, content: string | undefined, key = "name") =>
    content === undefined ? "" : `<meta ${key}="${name}" content="${escapeHtml(content)}"/>`;
  const og = head.openGraph;
  return (
    `<!DOCTYPE html><html lang="${locale}" dir="${textDirection(locale)}"><head><meta charSet="utf-8"/>` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"/>${styles}` +
    (head.title === undefined ? "" : `<title>${escapeHtml(head.title)}</title>`) +
    meta("description", head.description) +
    `<meta name="robots" content="noindex, nofollow"/>` +
    (og
      ? meta("og:title", og.title, "property") +
        meta("og:description", og.description, "property") +
        meta("og:url", og.url, "property") +
        meta("og:locale", og.locale, "property") +
        meta("og:type", "website", "property")
      : "") +
    `<link rel="icon" href="${PAGE_ICON_URL}" type="image/svg+xml"/></head><body>${body}</body></html>`
  );
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (character) => `&${{ "&": "amp", "<": "lt", ">": "gt", '"': "quot" }[character]};`);
}
