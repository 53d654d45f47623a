import { Button } from "@/components/button";
import { ConsoleForm, ConsoleNotice } from "@/components/console/console-form";
import { ConsoleCardShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { getConfig } from "@/lib/config";
import { consolePath } from "@/lib/console/access/console-paths";
import { queryValue, type SignedOutConsolePage, type SignedOutPageRequest } from "@/lib/console/web/console-page";
import { signedInRedirect } from "@/lib/console/web/open-signed-out-page";
import { translator } from "@/lib/i18n/translator";

/**
 * GET /{locale}/console/forgot-password: with SMTP_URL, an email gets a reset link (the answer is
 * the same whether or not an account has it); without, the page says no email can be sent and
 * where a link comes from instead, the same for everyone.
 */
async function renderForgotPasswordPage(request: SignedOutPageRequest) {
  const redirect = await signedInRedirect(request);
  if (redirect) return { redirect };
  const { locale, query } = request;
  const error = queryValue(query, "error");
  const t = translator(locale, "console.forgotPassword");
  const back = (
    <a
      href={consolePath.signIn(locale)}
      className="text-center font-semibold text-teal-800 underline-offset-4 hover:underline"
    >
      {t("back")}
    </a>
  );
  if (!getConfig().SMTP_URL) {
    return (
      <ConsoleCardShell locale={locale} path="/console/forgot-password" title={t("noMailTitle")}>
        <p className="text-slate-800">{t("noMail")}</p>
        {back}
      </ConsoleCardShell>
    );
  }
  return (
    <ConsoleCardShell locale={locale} path="/console/forgot-password" title={t("title")}>
      {queryValue(query, "sent") ? (
        <ConsoleNotice tone="success">{t("sent")}</ConsoleNotice>
      ) : (
        <p className="text-slate-800">{t("intro")}</p>
      )}
      {error === "locked" ? <ConsoleNotice tone="error">{t("locked")}</ConsoleNotice> : null}
      <ConsoleForm locale={locale} action="forgot-password">
        <Field
          id="email"
          name="email"
          type="email"
          label={t("email")}
          autoComplete="username"
          required
          maxLength={254}
          defaultValue={queryValue(query, "email")}
          error={error === "invalidEmail" ? t("invalidEmail") : null}
        />
        <Button type="submit">{t("submit")}</Button>
      </ConsoleForm>
      {back}
    </ConsoleCardShell>
  );
}

export const forgotPasswordPage: SignedOutConsolePage = {
  signedOut: true,
  title: { messages: "console.forgotPassword" },
  render: renderForgotPasswordPage,
};
