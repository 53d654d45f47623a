import type { ReactNode } from "react";
import { translator } from "@/lib/i18n/translator";
import { getConfig } from "@/lib/config";
import type { Locale } from "@/lib/i18n/routing";
import { LockIcon } from "./icons";
import { LanguageSwitcher, type LanguageSwitcherProps } from "./language-switcher";

export interface CardShellProps extends Omit<LanguageSwitcherProps, "locale"> {
  locale: Locale;
  children: ReactNode;
}

/**
 * The frame of every hosted page: brand bar with the language switcher, one centred card
 * sized for a phone first, and the safety note. Pages only fill the card.
 */
export function CardShell({ locale, path, search, children }: CardShellProps) {
  const t = translator(locale, "common");
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-slate-100 to-slate-50 text-slate-900">
      <header className="mx-auto flex w-full max-w-md flex-wrap items-center justify-between gap-3 px-4 pt-5 pb-3">
        <p className="flex items-center gap-2 text-sm font-semibold text-slate-800">
          <span className="inline-flex size-8 items-center justify-center rounded-full bg-teal-700 text-white">
            <LockIcon className="size-4" />
          </span>
          {t("secureCheckout")}
        </p>
        <LanguageSwitcher locale={locale} path={path} search={search} />
      </header>
      <main className="mx-auto w-full max-w-md flex-1 px-4 pb-6">
        {getConfig().isSandbox ? (
          <p className="mb-3 rounded-lg bg-amber-100 px-3 py-2 text-center text-xs font-medium text-amber-950">
            {t("testMode")}
          </p>
        ) : null}
        <div className="flex flex-col gap-6 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-7">
          {children}
        </div>
      </main>
      <footer className="mx-auto w-full max-w-md px-4 pb-8 text-center text-xs leading-relaxed text-slate-600">
        {t("footer")}
      </footer>
    </div>
  );
}
