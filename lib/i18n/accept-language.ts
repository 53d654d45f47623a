import { isLocale } from "./locales";
import type { Locale } from "./routing";

/**
 * The page language an Accept-Language header asks for (RFC 9110 12.5.4): of our locales, the
 * one with the highest weight, matched on the primary subtag (`fr-DZ` is French). Null when
 * the header names none of them, so the caller's own default applies.
 */
export function preferredLocale(header: string | null | undefined): Locale | null {
  if (!header) return null;
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [range = "", ...params] = part.trim().split(";");
      const q = params.map((param) => /^\s*q=([0-9.]+)\s*$/i.exec(param)?.[1]).find((value) => value !== undefined);
      return { language: range.trim().toLowerCase().split("-")[0], weight: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.weight > 0 && Number.isFinite(entry.weight))
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  return ranked.map((entry) => entry.language).find(isLocale) ?? null;
}
