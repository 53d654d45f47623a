import { localeNames } from "@/lib/i18n/locales";
import { routing, type Locale } from "@/lib/i18n/routing";
import { translator } from "@/lib/i18n/translator";
import { GlobeIcon } from "./icons";

export interface LanguageSwitcherProps {
  locale: Locale;
  /** The page's path without its locale, e.g. `/pay/otp/<id>`. */
  path: string;
  /** The page's query string, kept as is: the token and returnUrl must survive a switch. */
  search?: string;
}

/**
 * Plain links, not a script: they work before hydration and without JavaScript, and a full
 * load is what switching `lang` and `dir` of the whole document needs anyway.
 */
export function LanguageSwitcher({ locale, path, search = "" }: LanguageSwitcherProps) {
  const t = translator(locale, "common");
  const query = search ? `?${search.replace(/^\?/, "")}` : "";
  return (
    <nav aria-label={t("language")} className="flex items-center gap-1.5">
      <GlobeIcon className="size-4 text-slate-500" />
      <ul className="flex items-center gap-1">
        {routing.locales.map((candidate) => (
          <li key={candidate}>
            <a
              href={`/${candidate}${path}${query}`}
              hrefLang={candidate}
              lang={candidate}
              aria-current={candidate === locale ? "true" : undefined}
              className={
                "inline-flex min-h-9 items-center rounded-lg px-2.5 text-sm transition-colors " +
                "focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-teal-600 " +
                (candidate === locale
                  ? "bg-slate-900 font-semibold text-white"
                  : "text-slate-700 underline-offset-4 hover:bg-slate-100 hover:underline")
              }
            >
              {localeNames[candidate]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
