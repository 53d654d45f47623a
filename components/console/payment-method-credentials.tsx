import { Button } from "@/components/button";
import { ConsoleForm, ConsoleNotice, Section } from "@/components/console/console-form";
import { consoleDateTime } from "@/components/console/payment-labels";
import { fieldProblemText } from "@/components/console/problem-text";
import { Field } from "@/components/field";
import type { ConsoleFlash } from "@/lib/console/web/console-flash";
import { numberLocale } from "@/lib/i18n/locales";
import type { Locale } from "@/lib/i18n/routing";
import { translator } from "@/lib/i18n/translator";
import { CATALOG_DEFAULTS } from "@/lib/payment-methods/codes/catalog-defaults";
import type { MethodCredentialsView } from "@/lib/payment-methods/method-credentials";

// The merchant countries' names in the page's language (Intl knows regions by their alpha-2 code).
const ALPHA2: Readonly<Record<string, string>> = { DZA: "DZ", MAR: "MA", TUN: "TN" };

function countryNames(locale: Locale, countries: readonly string[]): string {
  const names = new Intl.DisplayNames([numberLocale(locale)], { type: "region" });
  const list = new Intl.ListFormat(numberLocale(locale), { type: "conjunction" });
  return list.format(countries.map((country) => (ALPHA2[country] ? (names.of(ALPHA2[country]) ?? country) : country)));
}

/**
 * Settings "Payment methods" (contract 15, "Enabling"): one section per redirect method the
 * merchant's countries have, its form drawn from the fields the method's provider declares
 * (RedirectProvider.credentialFields), so a new provider needs no change here. A secret is never
 * shown back: only whether it is set and when the credentials last changed. Owners set them and
 * test the connection; a developer sees the state only.
 */
export function PaymentMethodCredentials({
  locale,
  formToken,
  flash,
  views,
  timeZone,
  mayManage,
}: {
  locale: Locale;
  formToken: string;
  flash: ConsoleFlash | null;
  views: readonly MethodCredentialsView[];
  timeZone: string;
  mayManage: boolean;
}) {
  const t = translator(locale, "console.settings.methods");
  if (views.length === 0) return null;
  return (
    <section aria-labelledby="payment-methods-heading" className="flex flex-col gap-4">
      <h2 id="payment-methods-heading" className="text-xl font-bold text-slate-900">
        {t("title")}
      </h2>
      <p className="text-sm text-slate-700">{t(mayManage ? "intro" : "introReadOnly")}</p>
      {views.map((view) => (
        <MethodSection
          key={view.code}
          locale={locale}
          formToken={formToken}
          flash={flash}
          view={view}
          timeZone={timeZone}
          mayManage={mayManage}
        />
      ))}
    </section>
  );
}

function MethodSection({
  locale,
  formToken,
  flash,
  view,
  timeZone,
  mayManage,
}: {
  locale: Locale;
  formToken: string;
  flash: ConsoleFlash | null;
  view: MethodCredentialsView;
  timeZone: string;
  mayManage: boolean;
}) {
  const t = translator(locale, "console.settings.methods");
  const displayName = CATALOG_DEFAULTS.find((method) => method.code === view.code)?.displayNames[locale] ?? view.code;
  const id = `method-${view.code.toLowerCase()}`;
  const failed = flash?.kind === "error" && flash.form === `method-${view.code}` ? flash : null;
  const tested = flash?.kind === "connection_test" && flash.method === view.code ? flash : null;
  const changed = view.changedAt ? consoleDateTime(locale, timeZone).format(view.changedAt) : null;
  return (
    <Section id={id} title={`${displayName} (${view.code})`}>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
        <dt className="font-semibold text-slate-800">{t("state")}</dt>
        <dd className="text-slate-700">
          {view.enabledIn.length > 0
            ? t("enabledIn", { countries: countryNames(locale, view.enabledIn) })
            : t("notEnabled", { countries: countryNames(locale, view.countries) })}
        </dd>
        <dt className="font-semibold text-slate-800">{t("credentials")}</dt>
        <dd className="text-slate-700">{changed ? t("lastChanged", { at: changed }) : t("noCredentials")}</dd>
      </dl>
      {tested ? (
        <ConsoleNotice tone={tested.result === "ok" ? "success" : "error"}>
          {tested.saved ? `${t("saved")} ` : ""}
          {t(`connection.${tested.result}`)}
        </ConsoleNotice>
      ) : null}
      {mayManage ? (
        <>
          <ConsoleForm
            locale={locale}
            action="payment-method-credentials"
            formToken={formToken}
            label={t("formLabel", { method: displayName })}
          >
            <input type="hidden" name="method" value={view.code} />
            {view.fields.map((field) => {
              const error = failed && failed.field === field.name ? fieldProblemText(locale, failed.detail) : null;
              return field.secret ? (
                <Field
                  key={field.name}
                  id={`${id}-${field.name}`}
                  name={field.name}
                  type="password"
                  dir="ltr"
                  autoComplete="new-password"
                  maxLength={200}
                  label={t(`fields.${field.labelKey}`)}
                  hint={field.set ? t("secretSet") : t("secretNotSet")}
                  error={error}
                />
              ) : (
                <Field
                  key={field.name}
                  id={`${id}-${field.name}`}
                  name={field.name}
                  dir="ltr"
                  autoComplete="off"
                  spellCheck={false}
                  maxLength={200}
                  label={t(`fields.${field.labelKey}`)}
                  defaultValue={failed?.values?.[field.name] ?? field.value ?? ""}
                  error={error}
                />
              );
            })}
            <Button type="submit">{t("save")}</Button>
          </ConsoleForm>
          <ConsoleForm
            locale={locale}
            action="payment-method-test"
            formToken={formToken}
            label={t("testLabel", { method: displayName })}
          >
            <input type="hidden" name="method" value={view.code} />
            <Button type="submit" variant="secondary">
              {t("test")}
            </Button>
          </ConsoleForm>
        </>
      ) : null}
    </Section>
  );
}
