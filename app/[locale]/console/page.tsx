import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { ConsoleShell } from "@/components/console/console-shell";
import { openConsolePage, type ConsolePageProps } from "./_lib/open-console-page";

export const metadata: Metadata = { title: "Console" };

/** GET /{locale}/console: the member's merchant and role; the navigation leads on. */
export default async function ConsoleHome({ params }: ConsolePageProps) {
  const { locale, principal, formToken } = await openConsolePage(params, null);
  const t = await getTranslations({ locale, namespace: "console" });
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
