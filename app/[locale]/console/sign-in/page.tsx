import { getTranslations } from "next-intl/server";
import { Button } from "@/components/button";
import { ConsoleForm, ConsoleNotice } from "@/components/console/console-form";
import { ConsoleCardShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { getConfig } from "@/lib/config";
import { consolePath } from "@/lib/console/access/console-paths";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { openSignedOutPage, queryValue, type ConsolePageProps } from "../_lib/open-console-page";

export const generateMetadata = titleFromMessages("console.signIn");

/** GET /{locale}/console/sign-in: email and password; a refusal never says which of the two was wrong. */
export default async function SignInPage({ params, searchParams }: ConsolePageProps) {
  const locale = await openSignedOutPage(params);
  const query = await searchParams;
  const error = queryValue(query, "error");
  const t = await getTranslations({ locale, namespace: "console.signIn" });
  return (
    <ConsoleCardShell locale={locale} path="/console/sign-in" title={t("title")}>
      {queryValue(query, "notice") === "password_reset" ? <ConsoleNotice tone="success">{t("passwordReset")}</ConsoleNotice> : null}
      {error === "refused" || error === "locked" ? <ConsoleNotice tone="error">{t(error)}</ConsoleNotice> : null}
      <ConsoleForm locale={locale} action="sign-in">
        <Field id="email" name="email" type="email" label={t("email")} autoComplete="username" required maxLength={254} />
        <Field id="password" name="password" type="password" label={t("password")} autoComplete="current-password" required maxLength={256} />
        <Button type="submit">{t("submit")}</Button>
      </ConsoleForm>
      <a href={consolePath.forgotPassword(locale)} className="text-center font-semibold text-teal-800 underline-offset-4 hover:underline">
        {t("forgot")}
      </a>
      {getConfig().isSandbox ? (
        <a href={consolePath.signUp(locale)} className="text-center font-semibold text-teal-800 underline-offset-4 hover:underline">
          {t("noAccount")}
        </a>
      ) : null}
    </ConsoleCardShell>
  );
}
