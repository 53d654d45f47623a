import { Button } from "@/components/button";
import { ConsoleForm } from "@/components/console/console-form";
import { ConsoleCardShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { queryValue, type SignedOutConsolePage, type SignedOutPageRequest } from "@/lib/console/web/console-page";
import { openCodeStep } from "@/lib/console/web/open-signed-out-page";
import { translator } from "@/lib/i18n/translator";

/** GET /{locale}/console/sign-in/code: the second step, a current TOTP code or an unused recovery code. */
async function renderCodeStepPage(request: SignedOutPageRequest) {
  const opened = await openCodeStep(request);
  if ("redirect" in opened) return opened;
  const { locale } = request;
  const wrong = queryValue(request.query, "error") === "wrong_code";
  const t = translator(locale, "console.code");
  return (
    <ConsoleCardShell locale={locale} path="/console/sign-in/code" title={t("title")}>
      <p className="text-slate-800">{t("intro")}</p>
      <ConsoleForm locale={locale} action="verify-code" formToken={opened.formToken}>
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

export const codeStepPage: SignedOutConsolePage = {
  signedOut: true,
  title: { messages: "console.code" },
  render: renderCodeStepPage,
};
