import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createTranslator, type AbstractIntlMessages } from "use-intl/core";
import { mergeMessages, type Messages } from "../../lib/i18n/merge-messages";

export type PageLocale = "en" | "fr" | "ar";

const MESSAGES = path.resolve(import.meta.dirname, "../../messages");
const METHODS = path.resolve(import.meta.dirname, "../../lib/payment-methods");

/**
 * A language's words as the gateway's catalogue (lib/i18n/catalogs.ts) has them: the given files
 * of messages/ and each payment method's own words
 * (lib/payment-methods/<method>/declaration/messages.<locale>.json).
 */
export function catalogueOf(locale: PageLocale, files: readonly string[]): AbstractIntlMessages {
  const read = (file: string) => JSON.parse(readFileSync(file, "utf8")) as Messages;
  const methodFiles = readdirSync(METHODS)
    .map((method) => path.join(METHODS, method, "declaration", `messages.${locale}.json`))
    .filter((file) => existsSync(file));
  const pages = files
    .map((file) => read(path.join(MESSAGES, file)))
    .reduce((catalogue, words) => ({ ...catalogue, ...words }), {});
  return methodFiles
    .map(read)
    .reduce((catalogue, words) => mergeMessages(catalogue, words), pages) as AbstractIntlMessages;
}

/**
 * The page's own words in each language, so one journey can run in all three. The English
 * names of contract 10 are asserted literally in the journeys themselves.
 */
export function messagesFor(locale: PageLocale): (key: string, values?: Record<string, string | number>) => string {
  const t = createTranslator({ locale, messages: catalogueOf(locale, [`${locale}.json`]) });
  return (key, values) =>
    (t as unknown as (key: string, values?: Record<string, string | number>) => string)(key, values);
}
