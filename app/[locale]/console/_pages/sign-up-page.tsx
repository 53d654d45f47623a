import { Button } from "@/components/button";
import { ConsoleForm } from "@/components/console/console-form";
import { ConsoleCardShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { getConfig } from "@/lib/config";
import { consolePath } from "@/lib/console/access/console-paths";
import { queryValue, type SignedOutConsolePage, type SignedOutPageRequest } from "@/lib/console/web/console-page";
import { signedInRedirect } from "@/lib/console/web/open-signed-out-page";
import { translator } from "@/lib/i18n/translator";

const FIELDS = ["name", "email", "password", "businessName"] as const;

/** GET /{locale}/console/sign-up (sandbox only; production answers 404): a user and a sandbox merchant of its own. */
async function renderSignUpPage(request: SignedOutPageRequest) {
  if (!getConfig().isSandbox) return null;
  const redirect = await signedInRedirect(request);
  if (redirect) return { redirect };
  const { locale, query } = request;
  const t = translator(locale, "console.signUp");
  const error = queryValue(query, "error");
  const errorField = queryValue(query, "field");
  const errorOf = (field: (typeof FIELDS)[number]) =>
    error && errorField === field && t.has(`errors.${error}`) ? t(`errors.${error}`) : null;
  return (
    <ConsoleCardShell locale={locale} path="/console/sign-up" title={t("title")}>
      <p className="text-slate-800">{t("intro")}</p>
      <ConsoleForm locale={locale} action="sign-up">
        <Field
          id="name"
          name="name"
          label={t("name")}
          autoComplete="name"
          required
          maxLength={120}
          defaultValue={queryValue(query, "name")}
          error={errorOf("name")}
        />
        <Field
          id="email"
          name="email"
          type="email"
          label={t("email")}
          autoComplete="email"
          required
          maxLength={254}
          defaultValue={queryValue(query, "email")}
          error={errorOf("email")}
        />
        <Field
          id="password"
          name="password"
          type="password"
          label={t("password")}
          hint={t("passwordHint")}
          autoComplete="new-password"
          required
          minLength={12}
          maxLength={256}
          error={errorOf("password")}
        />
        <Field
          id="businessName"
          name="businessName"
          label={t("businessName")}
          autoComplete="organization"
          required
          maxLength={120}
          defaultValue={queryValue(query, "businessName")}
          error={errorOf("businessName")}
        />
        <Button type="submit">{t("submit")}</Button>
      </ConsoleForm>
      <a
        href={consolePath.signIn(locale)}
        className="text-center font-semibold text-teal-800 underline-offset-4 hover:underline"
      >
        {t("haveAccount")}
      </a>
    </ConsoleCardShell>
  );
}

export const signUpPage: SignedOutConsolePage = {
  signedOut: true,
  title: { messages: "console.signUp" },
  render: renderSignUpPage,
};
