import QRCode from "qrcode";
import { Button } from "@/components/button";
import { ConsoleForm, ConsoleNotice, ReadOnlyValue, Section } from "@/components/console/console-form";
import { ConsoleShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { otpauthUri } from "@/lib/console/access/totp";
import { pendingTwoStepSecret } from "@/lib/console/access/two-step-setup";
import type { ConsolePage } from "@/lib/console/web/console-page";
import type { OpenConsolePage } from "@/lib/console/web/open-console-session";
import { translator } from "@/lib/i18n/translator";

/** GET /{locale}/console/account: password, two-step verification (setup, recovery codes, off), sign out everywhere. */
async function renderAccountPage({ db, locale, principal, formToken, flash }: OpenConsolePage) {
  const t = translator(locale, "console.account");
  const code = translator(locale, "console.code");
  const pending = principal.user.twoStepOn ? null : await pendingTwoStepSecret(db, principal.user.id);
  const qr = pending
    ? await QRCode.toDataURL(otpauthUri(pending, { issuer: "Gateway console", account: principal.user.email }), {
        margin: 1,
        width: 220,
      })
    : null;
  const errorOf = (form: string, field: string) =>
    flash?.kind === "error" && flash.form === form && flash.field === field
      ? t(`errors.${flash.key}`, { detail: flash.detail ?? "" })
      : null;
  return (
    <ConsoleShell
      locale={locale}
      path="/console/account"
      principal={principal}
      formToken={formToken}
      title={t("title")}
    >
      {principal.mustSetUpTwoStep && principal.membership ? (
        <ConsoleNotice tone="error">{t("required", { merchant: principal.membership.merchantName })}</ConsoleNotice>
      ) : null}
      {flash?.kind === "notice" && t.has(`notices.${flash.key}`) ? (
        <ConsoleNotice tone="success">{t(`notices.${flash.key}`)}</ConsoleNotice>
      ) : null}

      <Section title={t("twoStepTitle")} id="two-step">
        {flash?.kind === "recovery_codes" ? (
          <div className="flex flex-col gap-2">
            <h3 id="recovery-codes" className="font-semibold">
              {t("recoveryCodes")}
            </h3>
            <p className="text-sm text-slate-800">{t("recoveryIntro")}</p>
            <ul aria-labelledby="recovery-codes" dir="ltr" className="grid grid-cols-2 gap-2 font-mono text-base">
              {flash.codes.map((code) => (
                <li key={code} className="rounded-lg bg-slate-100 px-3 py-2 text-center">
                  {code}
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        {principal.user.twoStepOn ? (
          <>
            <p className="text-slate-800">{t("twoStepOn")}</p>
            <ConsoleForm locale={locale} action="two-step-off" formToken={formToken}>
              <p className="text-sm text-slate-700">{t("turnOffIntro")}</p>
              <Field
                id="two-step-off-password"
                name="password"
                type="password"
                label={t("password")}
                autoComplete="current-password"
                required
                error={errorOf("two-step-off", "password")}
              />
              <Button type="submit" variant="secondary">
                {t("turnOff")}
              </Button>
            </ConsoleForm>
          </>
        ) : pending && qr ? (
          <>
            <p className="text-slate-800">{t("setupIntro")}</p>
            <img
              src={qr}
              alt={t("qrAlt")}
              width={220}
              height={220}
              className="self-center rounded-lg ring-1 ring-slate-200"
            />
            <ReadOnlyValue id="secret-key" label={t("secretKey")} value={pending} />
            <ConsoleForm locale={locale} action="two-step-confirm" formToken={formToken}>
              <Field
                id="code"
                name="code"
                label={code("field")}
                inputMode="numeric"
                autoComplete="one-time-code"
                dir="ltr"
                required
                maxLength={6}
                error={errorOf("two-step", "code")}
              />
              <Button type="submit">{code("submit")}</Button>
            </ConsoleForm>
          </>
        ) : (
          <>
            <p className="text-slate-800">{t("twoStepOffState")}</p>
            <ConsoleForm locale={locale} action="two-step-start" formToken={formToken}>
              <Button type="submit">{t("turnOn")}</Button>
            </ConsoleForm>
          </>
        )}
      </Section>

      <Section title={t("passwordTitle")}>
        <ConsoleForm locale={locale} action="change-password" formToken={formToken}>
          <Field
            id="current-password"
            name="currentPassword"
            type="password"
            label={t("currentPassword")}
            autoComplete="current-password"
            required
            error={errorOf("password", "currentPassword")}
          />
          <Field
            id="new-password"
            name="newPassword"
            type="password"
            label={t("newPassword")}
            hint={t("newPasswordHint")}
            autoComplete="new-password"
            required
            minLength={12}
            maxLength={256}
            error={errorOf("password", "newPassword")}
          />
          <Button type="submit" variant="secondary">
            {t("changePassword")}
          </Button>
        </ConsoleForm>
      </Section>

      <Section title={t("sessionsTitle")}>
        <p className="text-sm text-slate-700">{t("sessionsIntro")}</p>
        <ConsoleForm locale={locale} action="sign-out-everywhere" formToken={formToken}>
          <Button type="submit" variant="secondary">
            {t("signOutEverywhere")}
          </Button>
        </ConsoleForm>
      </Section>
    </ConsoleShell>
  );
}

export const accountPage = {
  title: { messages: "console.account" },
  capability: null,
  twoStepSetup: true,
  render: renderAccountPage,
} satisfies ConsolePage;
