import { Button } from "@/components/button";
import { fieldProblemText } from "@/components/console/problem-text";
import { ConsoleForm, ConsoleNotice, Section } from "@/components/console/console-form";
import { ConsoleShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { principalMay } from "@/lib/console/access/console-principal";
import { getMerchantKeys } from "@/lib/console/merchants/merchant-keys";
import { PaymentMethodCredentials } from "@/components/console/payment-method-credentials";
import { methodCredentialsOverview } from "@/lib/payment-methods/method-credentials";
import { defaultTimeZoneOf } from "@/lib/merchants/merchant-time-zone";
import type { ConsolePage } from "@/lib/console/web/console-page";
import type { OpenConsolePage } from "@/lib/console/web/open-console-session";
import { translator } from "@/lib/i18n/translator";

/** The terms of payment URL, its own form: the SATIM checkout links it beside its required checkbox. */
function TermsSection({
  locale,
  formToken,
  termsUrl,
  flash,
}: Pick<OpenConsolePage, "locale" | "formToken" | "flash"> & { termsUrl: string | null }) {
  const t = translator(locale, "console.settings");
  const failed = flash?.kind === "error" && flash.form === "terms" ? flash : null;
  return (
    <Section title={t("terms.title")}>
      <ConsoleForm locale={locale} action="terms" formToken={formToken}>
        <Field
          id="terms-url"
          name="termsUrl"
          type="url"
          dir="ltr"
          label={t("terms.url")}
          hint={t("terms.hint")}
          maxLength={2048}
          defaultValue={failed?.values?.termsUrl ?? termsUrl ?? ""}
          error={failed ? t("errors.invalidSetting", { detail: fieldProblemText(locale, failed.detail) }) : null}
        />
        <Button type="submit">{t("terms.save")}</Button>
      </ConsoleForm>
    </Section>
  );
}

/**
 * GET /{locale}/console/settings (owners, developers): name, redirect URL, allowed origins, terms of payment
 * URL; the time zone and the payment methods' credentials (owners set them).
 */
async function renderSettingsPage({ db, locale, principal, formToken, flash }: OpenConsolePage) {
  const t = translator(locale, "console.settings");
  const keys = await getMerchantKeys(db, principal.membership!.serviceId);
  const methods = await methodCredentialsOverview(db, principal.membership!.serviceId);
  const failed = flash?.kind === "error" && flash.form === "settings" ? flash : null;
  const errorOf = (field: string) =>
    failed && failed.field === field
      ? t("errors.invalidSetting", { detail: fieldProblemText(locale, failed.detail) })
      : null;
  const originsError =
    failed && failed.field === "origins"
      ? t("errors.invalidSetting", { detail: fieldProblemText(locale, failed.detail) })
      : null;
  return (
    <ConsoleShell
      locale={locale}
      path="/console/settings"
      principal={principal}
      formToken={formToken}
      title={t("title")}
    >
      {flash?.kind === "notice" && t.has(`notices.${flash.key}`) ? (
        <ConsoleNotice tone="success">{t(`notices.${flash.key}`)}</ConsoleNotice>
      ) : null}
      <Section title={keys.name}>
        <ConsoleForm locale={locale} action="settings" formToken={formToken}>
          <Field
            id="name"
            name="name"
            label={t("name")}
            required
            maxLength={120}
            defaultValue={failed?.values?.name ?? keys.name}
            error={errorOf("name")}
          />
          <Field
            id="redirect-url"
            name="redirectUrl"
            type="url"
            dir="ltr"
            label={t("redirectUrl")}
            hint={t("redirectUrlHint")}
            maxLength={2048}
            defaultValue={failed?.values?.redirectUrl ?? keys.redirectUrl ?? ""}
            error={errorOf("redirectUrl")}
          />
          <div className="flex flex-col gap-2">
            <label htmlFor="origins" className="text-sm font-semibold text-slate-800">
              {t("origins")}
            </label>
            <textarea
              id="origins"
              name="origins"
              dir="ltr"
              rows={4}
              aria-describedby={originsError ? "origins-error origins-hint" : "origins-hint"}
              aria-invalid={originsError ? true : undefined}
              defaultValue={failed?.values?.origins ?? keys.allowedOrigins.join("\n")}
              className={
                "w-full rounded-xl border border-slate-300 bg-white px-4 py-3 font-mono text-sm " +
                "focus-visible:outline-3 focus-visible:outline-offset-1 focus-visible:outline-teal-600"
              }
            />
            {originsError ? (
              <p id="origins-error" role="alert" className="text-sm font-medium text-rose-700">
                {originsError}
              </p>
            ) : null}
            <p id="origins-hint" className="text-sm text-slate-600">
              {t("originsHint")}
            </p>
          </div>
          <Button type="submit">{t("save")}</Button>
        </ConsoleForm>
      </Section>
      <TimeZoneSection open={{ locale, principal, formToken, flash }} />
      <TermsSection locale={locale} formToken={formToken} termsUrl={keys.termsUrl} flash={flash} />
      <PaymentMethodCredentials
        locale={locale}
        formToken={formToken}
        flash={flash}
        views={methods}
        timeZone={principal.membership!.timeZone}
        mayManage={principalMay(principal, "merchant.manage")}
      />
    </ConsoleShell>
  );
}

/** The merchant's time zone (contract 13): an owner sets it; a developer sees it. */
function TimeZoneSection({ open: { locale, principal, formToken, flash } }: { open: Omit<OpenConsolePage, "db"> }) {
  const t = translator(locale, "console.settings");
  const membership = principal.membership!;
  const failed = flash?.kind === "error" && flash.form === "timeZone" ? flash : null;
  return (
    <Section title={t("timeZone.title")}>
      {principalMay(principal, "merchant.manage") ? (
        <ConsoleForm locale={locale} action="time-zone" formToken={formToken}>
          <Field
            id="time-zone"
            name="timeZone"
            dir="ltr"
            autoComplete="off"
            spellCheck={false}
            maxLength={64}
            label={t("timeZone.field")}
            hint={t("timeZone.hint", { zone: defaultTimeZoneOf(membership.countries) })}
            defaultValue={failed?.values?.timeZone ?? membership.timeZone}
            error={failed ? t("errors.invalidTimeZone") : null}
          />
          <Button type="submit">{t("timeZone.save")}</Button>
        </ConsoleForm>
      ) : (
        <p className="text-slate-700">{t("timeZone.current", { zone: membership.timeZone })}</p>
      )}
    </Section>
  );
}

export const settingsPage = {
  title: { messages: "console.settings" },
  capability: "integration.manage",
  render: renderSettingsPage,
} satisfies ConsolePage;
