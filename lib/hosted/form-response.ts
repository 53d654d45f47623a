import ar from "../../messages/ar.json";
import en from "../../messages/en.json";
import fr from "../../messages/fr.json";
import { isLocale, textDirection } from "../i18n/locales";
import type { Locale } from "../i18n/routing";
import { hostedPageHeaders, noStore } from "../http/security-headers";

const MESSAGES = { en, fr, ar } as const;

/** Why a post to a hosted address is answered with a plain page instead of a redirect. */
export type FormRefusal = "bad_request" | "cross_site" | "nul_character";

const STATUS: Record<FormRefusal, number> = { bad_request: 400, cross_site: 403, nul_character: 400 };

/**
 * A small, script-free page in the buyer's language for a post we will not act on: a body we
 * cannot read (400) or a post from another site or without the page's form token (403); or for
 * an address holding U+0000 (400, lib/validation/nul-character.ts).
 * Built without React so the proxy can answer it before Next.js touches the body.
 */
export function formRefusedResponse(refusal: FormRefusal, localeHint: unknown): Response {
  const locale: Locale = isLocale(localeHint) ? localeHint : "en";
  const text = MESSAGES[locale].formRefused;
  const pages: Record<FormRefusal, [title: string, body: string]> = {
    bad_request: [text.badRequestTitle, text.badRequestBody],
    cross_site: [text.crossSiteTitle, text.crossSiteBody],
    nul_character: [text.nulCharacterTitle, text.nulCharacterBody],
  };
  const [title, body] = pages[refusal];
  return plainPageResponse({ locale, status: STATUS[refusal], title, body });
}

/** The neutral "link not valid" page the app's 404 shows, answered 404: a sandbox form's address in production. */
export function notFoundPageResponse(localeHint: unknown): Response {
  const locale: Locale = isLocale(localeHint) ? localeHint : "en";
  const text = MESSAGES[locale].linkInvalid;
  return plainPageResponse({ locale, status: 404, title: text.title, body: text.body });
}

/**
 * A small, script-free page: a title, a paragraph and optionally a link, with the hosted pages'
 * headers and a CSP that lets it do nothing but be read. Built without React so the proxy (and
 * the console's form handlers) can answer with it before Next.js touches the request.
 */
export function plainPageResponse(page: { locale: Locale; status: number; title: string; body: string; link?: { href: string; text: string } }): Response {
  const link = page.link ? `<p><a href="${escapeHtml(page.link.href)}">${escapeHtml(page.link.text)}</a></p>` : "";
  const html =
    `<!DOCTYPE html><html lang="${page.locale}" dir="${textDirection(page.locale)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex, nofollow">` +
    `<title>${escapeHtml(page.title)}</title></head>` +
    `<body><main><h1>${escapeHtml(page.title)}</h1><p>${escapeHtml(page.body)}</p>${link}</main></body></html>`;
  return new Response(html, {
    status: page.status,
    headers: {
      ...hostedPageHeaders,
      "content-type": "text/html; charset=utf-8",
      "cache-control": noStore,
      // No script, no style, nothing loaded: a page that cannot do anything but be read.
      "content-security-policy": "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    },
  });
}

/** The answer to a hosted form that was acted on: the browser GETs the page that shows the result. */
export function seeOther(location: string): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": noStore, ...hostedPageHeaders } });
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"]/g, (char) => `&#${char.charCodeAt(0)};`);
}
