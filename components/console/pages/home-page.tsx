import { ConsoleShell } from "@/components/console/console-shell";
import type { ConsolePage } from "@/lib/console-web/console-page";
import type { OpenConsolePage } from "@/lib/console-web/open-console-session";
import { translator } from "@/lib/i18n/translator";

/** GET /{locale}/console: the member's merchant and role; the navigation leads on. */
async function renderHomePage({ locale, principal, formToken }: OpenConsolePage) {
  const t = translator(locale, "console");
  return (
    <ConsoleShell locale={locale} path="/console" principal={principal} formToken={formToken} title={t("home.title", { name: principal.user.name })}>
      {principal.membership ? (
        <p className="text-slate-800">{t("home.role", { merchant: principal.membership.merchantName, role: t(`roles.${principal.membership.role}`) })}</p>
      ) : (
        <div className="flex flex-col gap-2">
          <h2 className="text-lg font-semibold">{t("home.noMerchantTitle")}</h2>
          <p className="text-slate-800">{t("home.noMerchantBody")}</p>
        </div>
      )}
    </ConsoleShell>
  );
}

export const homePage = { title: { messages: "console" }, capability: null, render: renderHomePage } satisfies ConsolePage;
