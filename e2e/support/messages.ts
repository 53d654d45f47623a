import { readFileSync } from "node:fs";
import path from "node:path";
import { createTranslator, type AbstractIntlMessages } from "use-intl/core";

export type PageLocale = "en" | "fr" | "ar";

const MESSAGES = path.resolve(import.meta.dirname, "../../messages");

/**
 * The page's own words in each language, so one journey can run in all three. The English
 * names of contract 10 are asserted literally in the journeys themselves.
 */
export function messagesFor(locale: PageLocale): (key: string, values?: Record<string, string | number>) => string {
  const messages = JSON.parse(readFileSync(path.join(MESSAGES, `${locale}.json`), "utf8")) as AbstractIntlMessages;
  const t = createTranslator({ locale, messages });
  return (key, values) => (t as unknown as (key: string, values?: Record<string, string | number>) => string)(key, values);
}
