import type { ReactElement } from "react";
import type { ConsoleAddress } from "@/lib/console/web/console-page";
import type { Locale } from "@/lib/i18n/routing";
import { translator } from "@/lib/i18n/translator";
import { CardShell } from "../card-shell";
import { StatusBanner } from "../status-banner";

/**
 * The console's not-found page, served by the console lane (lib/console/web/console-lane.ts): the
 * app's neutral "link not valid" page (components/link-not-valid.tsx, in components/card-shell.tsx's
 * frame), rendered without a Next.js request, so that an unknown console address and another
 * merchant's payment read alike, in the reader's language.
 */
export function ConsoleNotFound({ locale, address }: { locale: Locale; address: ConsoleAddress }): ReactElement {
  const t = translator(locale, "linkInvalid");
  return (
    <CardShell locale={locale} path={address.path} search={address.search}>
      <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t("title")}</h1>
      <StatusBanner tone="info">{t("body")}</StatusBanner>
    </CardShell>
  );
}

/**
 * A console page that failed to render (the database out of reach): app/[locale]/error.tsx's words,
 * its retry a plain link, in components/card-shell.tsx's frame.
 */
export function ConsoleUnavailable({ locale, address }: { locale: Locale; address: ConsoleAddress }): ReactElement {
  const t = translator(locale, "unavailable");
  const again = `/${locale}${address.path}${address.search ? `?${address.search}` : ""}`;
  return (
    <CardShell locale={locale} path={address.path} search={address.search}>
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
    </CardShell>
  );
}
