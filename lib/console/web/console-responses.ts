import { catalogs } from "../../i18n/catalogs";
import { isLocale } from "../../i18n/locales";
import { plainPageResponse } from "../../hosted/form-response";
import type { Locale } from "../../i18n/routing";
import { hostedPageHeaders, noStore } from "../../http/security-headers";
import { rolesWith, type Capability } from "../access/roles";

export type ConsoleRefusal = "bad_request" | "forged" | "forbidden" | "not_found";

const STATUS: Record<ConsoleRefusal, number> = { bad_request: 400, forged: 403, forbidden: 403, not_found: 404 };

type ConsoleMessages = { refused: Record<string, string>; roles: Record<string, string> };

function consoleText(locale: Locale): ConsoleMessages {
  return (catalogs[locale] as { console: ConsoleMessages }).console;
}

/** The roles that may do it, as the refusal page names them ("Owner or Developer"). */
export function neededRolesText(locale: Locale, capability: Capability): string {
  const text = consoleText(locale);
  return rolesWith(capability)
    .map((role) => text.roles[role])
    .join(text.refused.or);
}

/**
 * A small, script-free page for a console post refused: unreadable (400), forged or from another
 * site (403), not allowed to the member's role (403, naming the role it needs), or naming
 * another merchant's object (404). Nothing was changed.
 */
export function consoleRefusedResponse(
  refusal: ConsoleRefusal,
  localeHint: unknown,
  capability?: Capability,
): Response {
  const locale: Locale = isLocale(localeHint) ? localeHint : "en";
  const text = consoleText(locale).refused;
  const title = text[`${refusal}Title`]!;
  const body =
    refusal === "forbidden" && capability
      ? text.forbiddenBody!.replace("{roles}", neededRolesText(locale, capability))
      : text[`${refusal}Body`]!;
  const brand = (catalogs[locale] as { console: { title: string } }).console.title;
  return plainPageResponse({
    locale,
    status: STATUS[refusal],
    title,
    body,
    brand,
    link: { href: `/${locale}/console`, text: text.back! },
  });
}

/**
 * A form acted on: the browser GETs the page that shows the result, with the session cookie set or
 * cleared when it changed.
 */
export function consoleSeeOther(location: string, setCookie?: string): Response {
  const headers = new Headers({ location, "cache-control": noStore, ...hostedPageHeaders });
  if (setCookie) headers.append("set-cookie", setCookie);
  return new Response(null, { status: 303, headers });
}
