import { getDb } from "../db/client";
import { catalogs } from "../i18n/catalogs";
import { preferredLocale } from "../i18n/accept-language";
import { isLocale, localeNames, textDirection } from "../i18n/locales";
import { routing, type Locale } from "../i18n/routing";
import { hostedPageHeaders, noStore } from "../http/security-headers";
import { getLinkPage } from "../payment-links/get-link-page";
import { paymentLinkClosedPath, paymentLinkPagePath } from "../urls/payment-link-urls";

// The two answers of a payment link that are not its page: the shared `url` (`/l/{id}`),
// which picks the buyer's language, and the 410 of a link that takes no payment now. Route
// handlers, not pages: Next.js cannot answer a page with 410 (contract 14 asks for it).

/**
 * GET /l/{id}: the language is the buyer's (Accept-Language), else the link's own `locale`;
 * an open link sends the buyer to its page in it, a closed one answers 410 at once.
 */
export async function paymentLinkEntryResponse(request: Request, linkId: string): Promise<Response> {
  const page = await getLinkPage(await getDb(), linkId);
  const asked = preferredLocale(request.headers.get("accept-language"));
  const locale = asked ?? (page && isLocale(page.link.locale) ? page.link.locale : routing.defaultLocale);
  if (!page) return linkPageResponse(request, { locale, linkId, merchantName: null, status: 404 });
  if (page.closure) return linkPageResponse(request, { locale, linkId, merchantName: page.merchantName, status: 410 });
  return new Response(null, {
    status: 307,
    headers: {
      location: paymentLinkPagePath({ locale, linkId }),
      vary: "Accept-Language",
      "cache-control": noStore,
      ...hostedPageHeaders,
    },
  });
}

/** GET /{locale}/l/{id}/closed: 410 while the link takes no payment; once it does again (never, today), its page. */
export async function paymentLinkClosedResponse(
  request: Request,
  localeParam: string,
  linkId: string,
): Promise<Response> {
  const locale = isLocale(localeParam) ? localeParam : routing.defaultLocale;
  const page = await getLinkPage(await getDb(), linkId);
  if (!page) return linkPageResponse(request, { locale, linkId, merchantName: null, status: 404 });
  if (!page.closure)
    return new Response(null, {
      status: 307,
      headers: { location: paymentLinkPagePath({ locale, linkId }), "cache-control": noStore, ...hostedPageHeaders },
    });
  return linkPageResponse(request, { locale, linkId, merchantName: page.merchantName, status: 410 });
}

type LinkText = Record<"closedTitle" | "closedBody" | "closedBodyUnknown" | "notFoundTitle", string>;

/**
 * A small, script-free page in the buyer's language: the link no longer takes payments (410)
 * or never existed (404), with the language switcher every hosted page has. Its one style
 * element carries the proxy's nonce (x-nonce), as the API reference's does.
 */
function linkPageResponse(
  request: Request,
  options: { locale: Locale; linkId: string; merchantName: string | null; status: 404 | 410 },
): Response {
  const { locale, linkId, merchantName, status } = options;
  const text = (catalogs[locale] as { paymentLink: LinkText }).paymentLink;
  const common = (catalogs[locale] as { common: { language: string; secureCheckout: string } }).common;
  const title = status === 410 ? text.closedTitle : text.notFoundTitle;
  const body = merchantName ? text.closedBody.replace("{merchant}", () => merchantName) : text.closedBodyUnknown;
  const nonce = request.headers.get("x-nonce");
  const languages = routing.locales
    .map((other) => {
      const name = escapeHtml(localeNames[other]);
      if (other === locale) return `<li><span aria-current="true" lang="${other}">${name}</span></li>`;
      const href = escapeHtml(paymentLinkClosedPath({ locale: other, linkId }));
      return `<li><a href="${href}" lang="${other}" hreflang="${other}">${name}</a></li>`;
    })
    .join("");
  const html =
    `<!DOCTYPE html><html lang="${locale}" dir="${textDirection(locale)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex, nofollow">` +
    `<title>${escapeHtml(title)}</title>` +
    `<style${nonce ? ` nonce="${escapeHtml(nonce)}"` : ""}>${STYLE}</style></head>` +
    `<body><header><p>${escapeHtml(common.secureCheckout)}</p>` +
    `<nav aria-label="${escapeHtml(common.language)}"><ul>${languages}</ul></nav></header>` +
    `<main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p></main></body></html>`;
  return new Response(html, {
    status,
    headers: { ...hostedPageHeaders, "content-type": "text/html; charset=utf-8", "cache-control": noStore },
  });
}

const STYLE =
  "body{margin:0;font-family:system-ui,sans-serif;background:#f1f5f9;color:#0f172a}" +
  "header{max-width:28rem;margin:0 auto;padding:1.25rem 1rem .75rem;display:flex;flex-wrap:wrap;gap:.75rem;" +
  "justify-content:space-between;align-items:center}" +
  "header p{margin:0;font-weight:600;font-size:.875rem}" +
  "nav ul{display:flex;gap:.75rem;list-style:none;margin:0;padding:0;font-size:.875rem}" +
  "a{color:#115e59}" +
  "main{max-width:28rem;margin:0 auto 2rem;padding:1.5rem;background:#fff;border-radius:1rem;" +
  "box-shadow:0 1px 2px #0000001a}" +
  "h1{font-size:1.5rem;margin:0 0 .75rem}main p{margin:0;line-height:1.5;color:#334155}";

function escapeHtml(value: string): string {
  return value.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}
