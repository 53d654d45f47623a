import { Button } from "@/components/button";
import { ConsoleForm, ConsoleNotice } from "@/components/console/console-form";
import { ConsoleCardShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { getConfig } from "@/lib/config";
import { consolePath } from "@/lib/console/access/console-paths";
import { queryValue, type SignedOutConsolePage, type SignedOutPageRequest } from "@/lib/console/web/console-page";
import { signedInRedirect } from "@/lib/console/web/open-signed-out-page";
import { translator } from "@/lib/i18n/translator";

/** GET /{locale}/console/sign-in: email and password; a refusal never says which of the two was wrong. */
async function renderSignInPage(request: SignedOutPageRequest) {
  const redirect = await signedInRedirect(request);
  if (redirect) return { redirect };
  const { locale, query } = request;
  const error = queryValue(query, "error");
  const t = translator(locale, "console.signIn");
  return (
    <ConsoleCardShell locale={locale} path="/console/sign-in" title={t("title")}>
      {queryValue(query, "notice") === "password_reset" ? (
        <ConsoleNotice tone="success">{t("passwordReset")}</ConsoleNotice>
      ) : null}
      {error === "refused" || error === "locked" ? <ConsoleNotice tone="error">{t(error)}</ConsoleNotice> : null}
      <ConsoleForm locale={locale} action="sign-in">
        <Field
          id="email"
          name="email"
          type="email"
          label={t("email")}
          autoComplete="username"
          required
          maxLength={254}
        />
        <Field
          id="password"
          name="password"
          type="password"
          label={t("password")}
          autoComplete="current-password"
          required
          maxLength={256}
        />
        <Button type="submit">{t("submit")}</Button>
      </ConsoleForm>
      <a
        href={consolePath.forgotPassword(locale)}
        className="text-center font-semibold text-teal-800 underline-offset-4 hover:underline"
      >
        {t("forgot")}
      </a>
      {getConfig().isSandbox ? (
        <a
          href={consolePath.signUp(locale)}
          className="text-center font-semibold text-teal-800 underline-offset-4 hover:underline"
        >
          {t("noAccount")}
        </a>
      ) : null}
    </ConsoleCardShell>
  );
}

export const signInPage: SignedOutConsolePage = {
  signedOut: true,
  title: { messages: "console.signIn" },
  render: renderSignInPage,
};
