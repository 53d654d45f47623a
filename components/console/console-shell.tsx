import type { ReactNode } from "react";
import { LanguageSwitcher } from "@/components/language-switcher";
import type { ConsolePrincipal } from "@/lib/console/access/console-principal";
import { principalMay } from "@/lib/console/access/console-principal";
import { getConfig } from "@/lib/config";
import { CONSOLE_NAV } from "@/lib/console/web/console-nav";
import { consolePath } from "@/lib/console/access/console-paths";
import type { Locale } from "@/lib/i18n/routing";
import { translator } from "@/lib/i18n/translator";
import { ConsoleForm, selectClasses } from "./console-form";
import { IsolatedText } from "./isolated-text";

const navLink =
  "inline-flex min-h-11 items-center rounded-lg px-3 text-sm font-medium " +
  "focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-teal-600";

/**
 * The frame of every signed-in console page: merchant and switcher, the navigation the member's
 * role may use (lib/console/web/console-nav.ts), account, sign out and the language switcher. No
 * client runtime: every control is a link or a form post. Synchronous (translator(), not
 * getTranslations), so the App Router and the console lane render this one component.
 */
export function ConsoleShell({
  locale,
  path,
  principal,
  formToken,
  title,
  children,
}: {
  locale: Locale;
  /** The page's path without its locale, for the language switcher. */
  path: string;
  principal: ConsolePrincipal;
  formToken: string;
  title: string;
  children: ReactNode;
}) {
  const t = translator(locale, "console");
  const current = path.split("/")[2] ?? "";
  const items = CONSOLE_NAV.filter((item) => principalMay(principal, item.capability));
  const navigation = (layout: "menu" | "bar") => (
    <>
      {principal.memberships.length > 1 ? (
        <ConsoleForm locale={locale} action="switch-merchant" formToken={formToken} className="flex items-end gap-2">
          <div className="flex min-w-0 flex-col gap-1">
            <label htmlFor={`merchant-switcher-${layout}`} className="text-xs font-semibold text-slate-700">
              {t("nav.merchant")}
            </label>
            <select
              id={`merchant-switcher-${layout}`}
              name="merchant"
              defaultValue={principal.membership?.serviceId}
              className={selectClasses + " min-h-11"}
            >
              {principal.memberships.map((membership) => (
                <option key={membership.serviceId} value={membership.serviceId}>
                  {membership.merchantName}
                </option>
              ))}
            </select>
          </div>
          <button
            type="submit"
            className={navLink + " border border-slate-300 bg-white text-slate-800 hover:bg-slate-50"}
          >
            {t("nav.switchMerchant")}
          </button>
        </ConsoleForm>
      ) : principal.membership ? (
        <p className="text-sm text-slate-700 wrap-anywhere">
          {t("nav.merchant")}: <strong className="text-slate-900">{principal.membership.merchantName}</strong>
        </p>
      ) : null}
      <nav aria-label={t("nav.label")}>
        <ul className={layout === "menu" ? "grid grid-cols-2 gap-1" : "flex flex-wrap items-center gap-1"}>
          {items.map((item) => (
            <li key={item.key}>
              <a
                href={`/${locale}/console/${item.segment}`}
                aria-current={current === item.segment ? "page" : undefined}
                className={
                  navLink +
                  (current === item.segment ? " bg-teal-700 text-white" : " text-slate-800 hover:bg-slate-100")
                }
              >
                {t(`nav.${item.key}`)}
              </a>
            </li>
          ))}
          <li>
            <a
              href={consolePath.account(locale)}
              aria-current={current === "account" ? "page" : undefined}
              className={
                navLink + (current === "account" ? " bg-teal-700 text-white" : " text-slate-800 hover:bg-slate-100")
              }
            >
              {t("nav.account")}
            </a>
          </li>
          <li>
            <ConsoleForm locale={locale} action="sign-out" formToken={formToken} className="inline">
              <button type="submit" className={navLink + " text-rose-800 hover:bg-rose-50"}>
                {t("nav.signOut")}
              </button>
            </ConsoleForm>
          </li>
        </ul>
      </nav>
    </>
  );
  const here = items.find((item) => item.segment === current);
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50 text-slate-900">
      <header className="border-b border-slate-200 bg-white">
        <div
          className={
            "mx-auto flex w-full max-w-5xl flex-wrap items-center justify-between gap-x-3 gap-y-1 " +
            "px-4 py-2 sm:py-3"
          }
        >
          <a
            href={consolePath.home(locale)}
            className="text-base font-bold text-teal-800 focus-visible:outline-3 focus-visible:outline-teal-600"
          >
            {t("title")}
          </a>
          <LanguageSwitcher locale={locale} path={path} />
        </div>
        {/* A phone: one row, the merchant and the navigation behind a disclosure (no script: <details>). */}
        <details className="mx-auto w-full max-w-5xl px-4 pb-2 sm:hidden">
          <summary
            className={
              navLink + " cursor-pointer gap-2 border border-slate-300 bg-white text-slate-900 hover:bg-slate-50"
            }
          >
            <span aria-hidden="true" className="text-lg leading-none">
              ☰
            </span>
            <span>{t("nav.menu")}</span>
            {here || current === "account" ? (
              <span className="font-normal text-slate-600">· {t(`nav.${here?.key ?? "account"}`)}</span>
            ) : null}
          </summary>
          <div className="flex flex-col gap-3 pt-3">{navigation("menu")}</div>
        </details>
        <div className="mx-auto hidden w-full max-w-5xl flex-col gap-3 px-4 pb-3 sm:flex">{navigation("bar")}</div>
      </header>
      <main className="mx-auto flex w-full max-w-5xl flex-1 flex-col gap-5 px-4 py-6">
        {getConfig().isSandbox ? (
          <p className="rounded-lg bg-amber-100 px-3 py-2 text-xs font-medium text-amber-950">{t("nav.testMode")}</p>
        ) : null}
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        {children}
      </main>
      <footer className="mx-auto w-full max-w-5xl px-4 pb-6 text-xs text-slate-600">
        <IsolatedText text={t("nav.signedInAs", { email: principal.user.email })} values={[principal.user.email]} />
      </footer>
    </div>
  );
}

/** The frame of the pages before sign-in (sign-in, code step, sign-up, invitation): one card, phone first. */
export function ConsoleCardShell({
  locale,
  path,
  search,
  title,
  children,
}: {
  locale: Locale;
  path: string;
  search?: string;
  title: string;
  children: ReactNode;
}) {
  const t = translator(locale, "console");
  return (
    <div className="flex min-h-dvh flex-col bg-gradient-to-b from-slate-100 to-slate-50 text-slate-900">
      <header className="mx-auto flex w-full max-w-md flex-wrap items-center justify-between gap-3 px-4 pt-5 pb-3">
        <p className="text-sm font-bold text-teal-800">{t("title")}</p>
        <LanguageSwitcher locale={locale} path={path} search={search} />
      </header>
      <main className="mx-auto w-full max-w-md flex-1 px-4 pb-8">
        {getConfig().isSandbox ? (
          <p className="mb-3 rounded-lg bg-amber-100 px-3 py-2 text-center text-xs font-medium text-amber-950">
            {t("nav.testMode")}
          </p>
        ) : null}
        <div className="flex flex-col gap-5 rounded-2xl bg-white p-5 shadow-sm ring-1 ring-slate-200 sm:p-7">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
          {children}
        </div>
      </main>
    </div>
  );
}
