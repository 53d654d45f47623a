import { getTranslations } from "next-intl/server";
import { Button } from "@/components/button";
import { ConsoleForm } from "@/components/console/console-form";
import { ConsoleCardShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { openCodeStepPage, queryValue, type ConsolePageProps } from "../../_lib/open-console-page";

export const generateMetadata = titleFromMessages("console.code");

/** GET /{locale}/console/sign-in/code: the second step, a current TOTP code or an unused recovery code. */
export default async function CodeStepPage({ params, searchParams }: ConsolePageProps) {
  const { locale, formToken } = await openCodeStepPage(params);
  const wrong = queryValue(await searchParams, "error") === "wrong_code";
  const t = await getTranslations({ locale, namespace: "console.code" });
  return (
    <ConsoleCardShell locale={locale} path="/console/sign-in/code" title={t("title")}>
      <p className="text-slate-800">{t("intro")}</p>
      <ConsoleForm locale={locale} action="verify-code" formToken={formToken}>
        <Field
          id="code"
          name="code"
          label={t("field")}
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          dir="ltr"
          required
          maxLength={16}
          error={wrong ? t("wrong") : null}
        />
        <Button type="submit">{t("submit")}</Button>
      </ConsoleForm>
    </ConsoleCardShell>
  );
}
