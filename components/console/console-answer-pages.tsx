import type { ReactElement } from "react";
import { getConfig } from "@/lib/config";
import type { ConsoleAddress } from "@/lib/console/web/console-page";
import type { Locale } from "@/lib/i18n/routing";
import { translator } from "@/lib/i18n/translator";
import { LockIcon } from "../icons";
import { LanguageSwitcher } from "../language-switcher";
import { StatusBanner } from "../status-banner";

/**
 * The console's not-found page, served by the console lane (lib/console/web/console-lane.ts): the
 * app's neutral "link not valid" page (components/link-not-valid.tsx in components/card-shell.tsx),
 * rendered without a Next.js request, so that an unknown console address and another merchant's
 * payment read alike, in the reader's language.
 */
export function ConsoleNotFound({ locale, address }: { locale: Locale; address: ConsoleAddress }): ReactElement {
  const t = translator(locale, "linkInvalid");
  return (
    <PageFrame locale={locale} address={address}>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t("title")}</h1>
      <StatusBanner tone="info">{t("body")}</StatusBanner>
    </PageFrame>
  );
}

/** A console page that failed to render (the database out of reach): app/[locale]/error.tsx's words, its retry a plain link. */
export function ConsoleUnavailable({ locale, address }: { locale: Locale; address: ConsoleAddress }): ReactElement {
  const t = translator(locale, "unavailable");
  const again = `/${locale}${address.path}${address.search ? `?${address.search}` : ""}`;
  return (
    <PageFrame locale={locale} address={address}>
      <h1 className="text-2xl font-bold tracking-tight">{t("title")}</h1>
      <p role="status" className="rounded-lg bg-sky-50 px-4 py-3 text-sm text-sky-950 ring-1 ring-sky-200">
        {t("body")}
      </p>
      <a
        href={again}
        className="self-start rounded-lg bg-teal-700 px-4 py-2 text-sm font-semibold text-white hover:bg-teal-800"
      >
        {t("retry")}
      </a>
    </PageFrame>
  );
}

/** components/card-shell.tsx's frame, with the words of a translator made without a request. */
function PageFrame({
  locale,
  address,
  children,
}: {
  locale: Locale;
  address: ConsoleAddress;
  children: ReactElement[];
}) {
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
        <LanguageSwitcher locale={locale} path={address.path} search={address.search} />
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
