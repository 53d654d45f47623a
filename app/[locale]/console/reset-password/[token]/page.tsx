import { getTranslations } from "next-intl/server";
import { Button } from "@/components/button";
import { ConsoleForm } from "@/components/console/console-form";
import { ConsoleCardShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { consolePath } from "@/lib/console/access/console-paths";
import { findOpenReset } from "@/lib/console/access/password-resets";
import { getDb } from "@/lib/db/client";
import { titleFromMessages } from "@/lib/i18n/page-title";
import { pageLocale, queryValue } from "../../_lib/open-console-page";

export const generateMetadata = titleFromMessages("console.resetPassword");

/** GET /{locale}/console/reset-password/{token}: "New password" and "Set password", while the link is unused and under an hour old. */
export default async function ResetPasswordPage({
  params,
  searchParams,
}: {
  params: Promise<{ locale: string; token: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const locale = await pageLocale(params);
  const { token } = await params;
  const t = await getTranslations({ locale, namespace: "console.resetPassword" });
  const reset = await findOpenReset(await getDb(), token);
  const path = `/console/reset-password/${encodeURIComponent(token)}`;
  if (!reset) {
    return (
      <ConsoleCardShell locale={locale} path={path} title={t("notOpenTitle")}>
        <p className="text-slate-800">{t("notOpenBody")}</p>
        <a href={consolePath.forgotPassword(locale)} className="text-center font-semibold text-teal-800 underline-offset-4 hover:underline">
          {t("askAgain")}
        </a>
      </ConsoleCardShell>
    );
  }
  const error = queryValue(await searchParams, "error");
  // The email isolated (FSI ... PDI), so it keeps its order inside Arabic text.
  return (
    <ConsoleCardShell locale={locale} path={path} title={t("title")}>
      <p className="text-slate-800 wrap-anywhere">{t("intro", { email: `\u2068${reset.email}\u2069` })}</p>
      <ConsoleForm locale={locale} action="reset-password">
        <input type="hidden" name="token" value={token} />
        <input type="email" name="email" value={reset.email} autoComplete="username" readOnly hidden />
        <Field
          id="password"
          name="password"
          type="password"
          label={t("newPassword")}
          hint={t("hint")}
          autoComplete="new-password"
          required
          minLength={12}
          maxLength={256}
          error={error && t.has(`errors.${error}`) ? t(`errors.${error}`) : null}
        />
        <Button type="submit">{t("submit")}</Button>
      </ConsoleForm>
    </ConsoleCardShell>
  );
}
