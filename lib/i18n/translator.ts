import { createTranslator, type Messages } from "next-intl";
import { catalogs } from "./catalogs";
import type { Locale } from "./routing";

/*
 * A translator made without a request: what next-intl's getTranslations gives a page (the same
 * catalogue, UTC as lib/i18n/request.ts sets, next-intl's own fallbacks), but synchronous, so one
 * component renders both under the App Router and under the console lane (lib/console/web/console-lane.ts),
 * which renders with react-dom/server outside any Next.js request. Made once per locale and
 * namespace: a translator caches its compiled messages and formats.
 */
const made = new Map<string, Translate>();

/** As getTranslations types it (no typed catalogue is declared: any key of any namespace). */
export type Translate = ReturnType<typeof createTranslator<Messages, string>>;

export function translator(locale: Locale, namespace: string): Translate {
  const key = `${locale}:${namespace}`;
  let t = made.get(key);
  if (!t)
    made.set(
      key,
      (t = createTranslator<Messages, string>({
        locale,
        messages: catalogs[locale] as Messages,
        namespace,
        timeZone: "UTC",
      })),
    );
  return t;
}
