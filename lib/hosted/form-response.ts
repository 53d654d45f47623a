import { createHash } from "node:crypto";
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

/**
 * The database cannot be reached for a moment (a restart, a failover): contract 12's 503 for the
 * hosted addresses, as a plain page in the buyer's language with Retry-After, never a bare 500.
 * Nothing was done: a press, a return or a reload may simply be repeated.
 */
export function serviceUnavailablePageResponse(localeHint: unknown): Response {
  const locale: Locale = isLocale(localeHint) ? localeHint : "en";
  const text = MESSAGES[locale].formRefused;
  const response = plainPageResponse({ locale, status: 503, title: text.unavailableTitle, body: text.unavailableBody });
  response.headers.set("retry-after", "5");
  return response;
}

/** The neutral "link not valid" page the app's 404 shows, answered 404: a sandbox form's address in production. */
export function notFoundPageResponse(localeHint: unknown): Response {
  const locale: Locale = isLocale(localeHint) ? localeHint : "en";
  const text = MESSAGES[locale].linkInvalid;
  return plainPageResponse({ locale, status: 404, title: text.title, body: text.body });
}

/*
 * The plain page's look: the console's and the hosted pages' colours and type (slate on a light
 * ground, one white card, a teal link as a button), phone first, right to left with the document.
 * One inline stylesheet, allowed by its hash alone: the page still loads nothing and runs nothing.
 */
const PLAIN_PAGE_STYLE =
  "*{box-sizing:border-box}html{-webkit-text-size-adjust:100%;color-scheme:light}" +
  "body{margin:0;min-height:100dvh;background:#f8fafc;color:#0f172a;" +
  "font-family:ui-sans-serif,system-ui,sans-serif;line-height:1.5}" +
  ":lang(ar){line-height:1.75}" +
  ".brand{margin:0 auto;max-width:28rem;padding:1.25rem 1rem .75rem;font-size:.875rem;font-weight:700;color:#115e59}" +
  "main{margin:0 auto 2rem;max-width:28rem;padding:0 1rem}" +
  ".card{display:flex;flex-direction:column;gap:1rem;border-radius:1rem;background:#fff;padding:1.25rem;" +
  "box-shadow:0 1px 2px rgb(0 0 0/.05);outline:1px solid #e2e8f0}" +
  "h1{margin:0;font-size:1.5rem;line-height:1.25;font-weight:700;letter-spacing:-.025em;overflow-wrap:anywhere}" +
  "p{margin:0;color:#1e293b;overflow-wrap:anywhere}" +
  "a{display:inline-flex;min-height:2.75rem;align-items:center;border-radius:.75rem;background:#0f766e;" +
  "padding:0 1rem;color:#fff;font-weight:600;text-decoration:none}" +
  "a:hover{background:#115e59}a:focus-visible{outline:3px solid #0d9488;outline-offset:2px}";
/**
 * Also in every page's policy (lib/hosted/page-headers.ts): proxy.ts sets that policy on a plain
 * page served under it (the console's 403 page).
 */
export const PLAIN_PAGE_STYLE_HASH = `'sha256-${createHash("sha256").update(PLAIN_PAGE_STYLE).digest("base64")}'`;

/**
 * A small, script-free page: a title, a paragraph and optionally a link (and the name of the
 * area above it: "Merchant console"), with the hosted pages' headers and a CSP that lets it do
 * nothing but be read. Built without React so the proxy (and the console's form handlers) can
 * answer with it before Next.js touches the request.
 */
export function plainPageResponse(page: {
  locale: Locale;
  status: number;
  title: string;
  body: string;
  link?: { href: string; text: string };
  brand?: string;
}): Response {
  const link = page.link ? `<p><a href="${escapeHtml(page.link.href)}">${escapeHtml(page.link.text)}</a></p>` : "";
  const brand = page.brand ? `<p class="brand">${escapeHtml(page.brand)}</p>` : "";
  const html =
    `<!DOCTYPE html><html lang="${page.locale}" dir="${textDirection(page.locale)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="robots" content="noindex, nofollow">` +
    `<title>${escapeHtml(page.title)}</title><style>${PLAIN_PAGE_STYLE}</style></head>` +
    `<body>${brand}<main><div class="card"><h1>${escapeHtml(page.title)}</h1>` +
    `<p>${escapeHtml(page.body)}</p>${link}</div></main></body></html>`;
  return new Response(html, {
    status: page.status,
    headers: {
      ...hostedPageHeaders,
      "content-type": "text/html; charset=utf-8",
      "cache-control": noStore,
      // No script, nothing loaded, one stylesheet by its hash: a page that cannot do anything but be read.
      "content-security-policy":
        `default-src 'none'; style-src ${PLAIN_PAGE_STYLE_HASH}; ` +
        "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
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
