import { Button } from "@/components/button";
import { ConsoleForm } from "@/components/console/console-form";
import { ConsoleCardShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { consolePath } from "@/lib/console/access/console-paths";
import { findOpenReset } from "@/lib/console/access/password-resets";
import { queryValue, type SignedOutConsolePage, type SignedOutPageRequest } from "@/lib/console/web/console-page";
import { translator } from "@/lib/i18n/translator";

/**
 * GET /{locale}/console/reset-password/{token}: "New password" and "Set password", while the link is unused
 * and under an hour old.
 */
async function renderResetPasswordPage({ db, locale, params, query }: SignedOutPageRequest) {
  const token = params.token!;
  const t = translator(locale, "console.resetPassword");
  const reset = await findOpenReset(db, token);
  const path = `/console/reset-password/${encodeURIComponent(token)}`;
  if (!reset) {
    return (
      <ConsoleCardShell locale={locale} path={path} title={t("notOpenTitle")}>
        <p className="text-slate-800">{t("notOpenBody")}</p>
        <a
          href={consolePath.forgotPassword(locale)}
          className="text-center font-semibold text-teal-800 underline-offset-4 hover:underline"
        >
          {t("askAgain")}
        </a>
      </ConsoleCardShell>
    );
  }
  const error = queryValue(query, "error");
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

export const resetPasswordPage: SignedOutConsolePage = {
  signedOut: true,
  title: { messages: "console.resetPassword" },
  render: renderResetPasswordPage,
};
