import createIntlMiddleware from "next-intl/middleware";
import { NextRequest, NextResponse } from "next/server";
import { routing, type Locale } from "./lib/i18n/routing";
import { notePageRequest } from "./lib/hosted/log-page-request";
import { PAGE_LOCALE_HEADER, PAGE_URL_HEADER } from "./lib/hosted/page-url";
import { getConfig } from "./lib/config";
import { acceptsPost } from "./lib/hosted/form-guard";
import { formRefusedResponse } from "./lib/hosted/form-response";
import { targetHasNulCharacter } from "./lib/validation/nul-character";
import { consoleRefusedResponse } from "./lib/console/web/console-responses";
import { newNonce, strictTransportSecurity } from "./lib/http/security-headers";
import { pageAnswerHeaders, pageContentSecurityPolicy } from "./lib/hosted/page-headers";
import { clientOrigin } from "./lib/http/client-address";
import { preferredLocale } from "./lib/i18n/accept-language";

const handleI18nRouting = createIntlMiddleware(routing);
const CONSOLE_PAGE = /^\/[a-z]{2}\/console(?:\/|$)/;

// Pages outside the locale tree (the sandbox demo merchant, the API reference, a payment link's
// shared url, which picks the language itself unless the browser names one) get the same headers, no locale.
const UNLOCALIZED = /^\/(demo|docs|l)(\/|$)/;
// The two short addresses a buyer is sent to without a language (issue 42): a payment link's
// shared url and a checkoutUrl. Served in the buyer's language at once, one round trip less
// on a slow phone than the redirect to it; the page's own links and forms name the language.
const PAYMENT_LINK_URL = /^\/l\/[^/]+$/;
const CHECKOUT_WITHOUT_LOCALE = /^\/pay\/checkout\/[^/]+$/;

/**
 * Every page request: a fresh CSP nonce handed to Next.js through the request headers (it
 * stamps its own scripts with it), locale routing, and the hosted pages' security headers.
 */
export default function proxy(request: NextRequest): Response {
  const https = getConfig().sendsHsts;
  const { pathname } = request.nextUrl;
  // A %00 in a page's path or query (a console search, a link's field): refused as the API refuses it, before any page queries with it.
  if (targetHasNulCharacter(request.url)) return withHsts(formRefusedResponse("nul_character", pathname.split("/")[1]), https);
  // Pages answer GET; only the hosted forms' own addresses (and the demo webhook receiver) take a post. Anything else posted
  // to a page (a stray or malformed form, a forged Server Action) is a 400 page, and Next.js
  // never parses its body.
  if (request.method !== "GET" && request.method !== "HEAD" && !acceptsPost(pathname)) {
    // A post to a console page (a stray reload of a refused sign-up, say) gets the console's words, not the payment page's.
    const locale = pathname.split("/")[1];
    const refusal = CONSOLE_PAGE.test(pathname) ? consoleRefusedResponse("bad_request", locale) : formRefusedResponse("bad_request", locale);
    return withHsts(refusal, https);
  }

  const servedIn = request.method === "GET" || request.method === "HEAD" ? buyersLanguage(request) : null;
  const nonce = newNonce();
  const csp = pageContentSecurityPolicy(servedIn ? `/${servedIn}${pathname}` : pathname, nonce, clientOrigin(request.headers).https);
  const headers = new Headers(request.headers);
  // Only the proxy names it (a client's own copy is dropped): next.config.mjs rewrites to the localized page on it.
  headers.delete(PAGE_LOCALE_HEADER);
  if (servedIn) headers.set(PAGE_LOCALE_HEADER, servedIn);
  headers.set("content-security-policy", csp);
  headers.set("x-nonce", nonce);
  // Lets the 404 page offer the same address in another language.
  headers.set(PAGE_URL_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  const requestId = notePageRequest(request, headers);

  // next-intl forwards the request headers it is given, so it gets a copy carrying the nonce.
  const response = servedIn || UNLOCALIZED.test(pathname) ? NextResponse.next({ request: { headers } }) : handleI18nRouting(new NextRequest(request.url, { headers }));

  for (const [name, value] of Object.entries(pageAnswerHeaders(csp, requestId))) response.headers.set(name, value);
  return response;
}

/**
 * The language a short address is served in at once (next.config.mjs rewrites it to the
 * localized page: the browser keeps the address it opened), or null to answer as before. Not a
 * rewrite from here: see next.config.mjs. A checkoutUrl takes what the locale routing would have
 * redirected to (Accept-Language, else English). A payment link's url only when the browser
 * names one of our languages (its page then answers an unknown link 404 and sends a closed one
 * to its 410 page); naming none, the url's route handler (app/l/[id]) picks the link's own
 * language as before. Under npm run dev and npm start alike: both run this proxy before Next.js
 * routes the request, and neither lane (API, console) serves these paths.
 */
function buyersLanguage(request: NextRequest): Locale | null {
  const { pathname } = request.nextUrl;
  const asked = preferredLocale(request.headers.get("accept-language"));
  if (CHECKOUT_WITHOUT_LOCALE.test(pathname)) return asked ?? routing.defaultLocale;
  if (PAYMENT_LINK_URL.test(pathname)) return asked;
  return null;
}

function withHsts<R extends Response>(response: R, https: boolean): R {
  if (https) response.headers.set("Strict-Transport-Security", strictTransportSecurity);
  return response;
}

export const config = {
  // Pages: not the API, Next's assets, or files such as /favicon.ico. The API sets its own
  // headers (lib/http/api-headers.ts): running the proxy for them cost a tenth of each request.
  matcher: ["/((?!api|_next|_vercel|.*\\..*).*)"],
};
