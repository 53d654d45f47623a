import { headers } from "next/headers";
import { getLocale, getTranslations } from "next-intl/server";
import { capabilityOfPath } from "@/lib/console/console-nav";
import { consolePath } from "@/lib/console/console-paths";
import { neededRolesText } from "@/lib/console-web/console-responses";
import { PAGE_URL_HEADER } from "@/lib/hosted/page-url";
import { isLocale } from "@/lib/i18n/locales";

// forbidden() from a console page the member's role may not open: 403, naming the role it needs.
export default async function ConsoleForbidden() {
  const requested = await getLocale();
  const locale = isLocale(requested) ? requested : "en";
  const t = await getTranslations({ locale, namespace: "console" });
  const path = (await headers()).get(PAGE_URL_HEADER) ?? "";
  const capability = capabilityOfPath(path.split("?")[0] ?? "");
  return (
    <main className="mx-auto flex max-w-md flex-col gap-4 px-4 py-10">
      <h1 className="text-2xl font-bold text-slate-900">{t("forbidden.title")}</h1>
      <p className="text-slate-800">{t("forbidden.body", { roles: capability ? neededRolesText(locale, capability) : t("roles.owner") })}</p>
      <a href={consolePath.home(locale)} className="font-semibold text-teal-800 underline">
        {t("refused.back")}
      </a>
    </main>
  );
}
