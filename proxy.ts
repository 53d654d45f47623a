import createIntlMiddleware from "next-intl/middleware";
import { NextRequest, NextResponse } from "next/server";
import { routing } from "./lib/i18n/routing";
import { notePageRequest } from "./lib/hosted/log-page-request";
import { PAGE_URL_HEADER } from "./lib/hosted/page-url";
import { getConfig } from "./lib/config";
import { acceptsPost } from "./lib/hosted/form-guard";
import { formRefusedResponse } from "./lib/hosted/form-response";
import { targetHasNulCharacter } from "./lib/validation/nul-character";
import { consoleRefusedResponse } from "./lib/console/web/console-responses";
import { newNonce, strictTransportSecurity } from "./lib/http/security-headers";
import { pageAnswerHeaders, pageContentSecurityPolicy } from "./lib/hosted/page-headers";
import { clientOrigin } from "./lib/http/client-address";

const handleI18nRouting = createIntlMiddleware(routing);
const CONSOLE_PAGE = /^\/[a-z]{2}\/console(?:\/|$)/;

// Pages outside the locale tree (the sandbox demo merchant, the API reference, a payment link's
// shared url, whose route handler picks the language when the browser names none of ours) get the
// same headers, no locale. The short addresses a buyer is sent to in their language at once (a
// checkoutUrl, a payment link's url; issue 42) are the hosted lane's (lib/hosted/hosted-lane.ts).
const UNLOCALIZED = /^\/(demo|docs|l)(\/|$)/;

/**
 * Every page request: a fresh CSP nonce handed to Next.js through the request headers (it
 * stamps its own scripts with it), locale routing, and the hosted pages' security headers.
 */
export default function proxy(request: NextRequest): Response {
  const https = getConfig().sendsHsts;
  const { pathname } = request.nextUrl;
  // A %00 in a page's path or query (a console search, a link's field): refused as the API refuses it, before
  // any page queries with it.
  if (targetHasNulCharacter(request.url))
    return withHsts(formRefusedResponse("nul_character", pathname.split("/")[1]), https);
  // Pages answer GET; only the hosted forms' own addresses (and the demo webhook receiver) take a post.
  // Anything else posted to a page (a stray or malformed form, a forged Server Action) is a 400 page, and
  // Next.js never parses its body.
  if (request.method !== "GET" && request.method !== "HEAD" && !acceptsPost(pathname)) {
    // A post to a console page (a stray reload of a refused sign-up, say) gets the console's words, not the
    // payment page's.
    const locale = pathname.split("/")[1];
    const refusal = CONSOLE_PAGE.test(pathname)
      ? consoleRefusedResponse("bad_request", locale)
      : formRefusedResponse("bad_request", locale);
    return withHsts(refusal, https);
  }

  const nonce = newNonce();
  const csp = pageContentSecurityPolicy(pathname, nonce, clientOrigin(request.headers).https);
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", csp);
  headers.set("x-nonce", nonce);
  // Lets the 404 page offer the same address in another language.
  headers.set(PAGE_URL_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  const requestId = notePageRequest(request, headers);

  // next-intl forwards the request headers it is given, so it gets a copy carrying the nonce.
  const response = UNLOCALIZED.test(pathname)
    ? NextResponse.next({ request: { headers } })
    : handleI18nRouting(new NextRequest(request.url, { headers }));

  for (const [name, value] of Object.entries(pageAnswerHeaders(csp, requestId))) response.headers.set(name, value);
  return response;
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
