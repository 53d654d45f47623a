import { Button, ButtonLink } from "@/components/button";
import { ConsoleForm, ConsoleNotice, ReadOnlyValue, Section, SelectField } from "@/components/console/console-form";
import { ConsoleShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { consolePath } from "@/lib/console/access/console-paths";
import { principalMay } from "@/lib/console/access/console-principal";
import { formatAmount } from "@/lib/i18n/format-amount";
import { routing, type Locale } from "@/lib/i18n/routing";
import { currencyExponents } from "@/lib/money/currencies";
import { listPaymentLinks } from "@/lib/payment-links/list-payment-links";
import { linkServiceOrThrow } from "@/lib/payment-links/payment-link-record";
import type { PaymentLinkView } from "@/lib/payment-links/payment-link.schema";
import type { ConsolePage } from "@/lib/console/web/console-page";
import type { OpenConsolePage } from "@/lib/console/web/open-console-session";
import { translator, type Translate } from "@/lib/i18n/translator";
import { fieldProblemText } from "@/components/console/problem-text";

const LINKS_SHOWN = 100;

/**
 * GET /{locale}/console/payment-links: every member sees the links; owners, developers and support create and
 * deactivate them.
 */
async function renderPaymentLinksPage({ db, locale, principal, formToken, flash }: OpenConsolePage) {
  const t = translator(locale, "console.paymentLinks");
  const serviceId = principal.membership!.serviceId;
  const mayManage = principalMay(principal, "payment_links.manage");
  const { links } = await listPaymentLinks(db, { serviceId, limit: LINKS_SHOWN });
  const { countries } = await linkServiceOrThrow(db, serviceId);
  const failed = flash?.kind === "error" && flash.form === "create-payment-link" ? flash : null;
  const errorOf = (field: string) =>
    failed?.field === field ? t("errors.invalidLink", { detail: fieldProblemText(locale, failed.detail) }) : null;
  const typed = (field: string, fallback = "") => failed?.values?.[field] ?? fallback;
  // Just created: the links (newest first, the new one on top) come before the form, so a phone
  // shows the new link at once rather than below the whole form.
  const justCreated = flash?.kind === "notice" && flash.key === "linkCreated";
  const linksSection = (
    <Section title={t("listTitle")} id="links">
      {links.length === 0 ? <p className="text-slate-700">{t("none")}</p> : null}
      <ul className="flex flex-col gap-4">
        {links.map((link) => (
          <LinkItem key={link.id} link={link} locale={locale} mayManage={mayManage} formToken={formToken} t={t} />
        ))}
      </ul>
    </Section>
  );
  return (
    <ConsoleShell
      locale={locale}
      path="/console/payment-links"
      principal={principal}
      formToken={formToken}
      title={t("title")}
    >
      {flash?.kind === "notice" && t.has(`notices.${flash.key}`) ? (
        <ConsoleNotice tone="success">{t(`notices.${flash.key}`)}</ConsoleNotice>
      ) : null}
      {justCreated && links.length > 0 ? linksSection : null}
      {mayManage ? (
        <Section title={t("create")} id="create">
          <ConsoleForm locale={locale} action="create-payment-link" formToken={formToken} label={t("create")}>
            <Field
              id="title"
              name="title"
              label={t("fields.title")}
              required
              maxLength={100}
              defaultValue={typed("title")}
              error={errorOf("title")}
            />
            <Field
              id="description"
              name="description"
              label={t("fields.description")}
              maxLength={500}
              defaultValue={typed("description")}
              error={errorOf("description")}
            />
            <Field
              id="amount"
              name="amount"
              inputMode="decimal"
              dir="ltr"
              label={t("fields.amount")}
              hint={t("fields.amountHint")}
              defaultValue={typed("amount")}
              error={errorOf("amount")}
            />
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                id="min-amount"
                name="minAmount"
                inputMode="decimal"
                dir="ltr"
                label={t("fields.minAmount")}
                defaultValue={typed("minAmount")}
                error={errorOf("minAmount")}
              />
              <Field
                id="max-amount"
                name="maxAmount"
                inputMode="decimal"
                dir="ltr"
                label={t("fields.maxAmount")}
                defaultValue={typed("maxAmount")}
                error={errorOf("maxAmount")}
              />
            </div>
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectWithError
                id="currency"
                name="currency"
                label={t("fields.currency")}
                error={errorOf("currency")}
                defaultValue={typed("currency", "DZD")}
                values={Object.keys(currencyExponents)}
              />
              <SelectWithError
                id="country"
                name="countryCode"
                label={t("fields.country")}
                error={errorOf("countryCode")}
                defaultValue={typed("countryCode", countries[0])}
                values={countries}
              />
              <SelectWithError
                id="capture-method"
                name="captureMethod"
                label={t("fields.captureMethod")}
                error={errorOf("captureMethod")}
                defaultValue={typed("captureMethod", "DIRECT")}
                values={["DIRECT", "RESERVATION"]}
                labelOf={(value) => t(`captureMethods.${value}`)}
              />
              <SelectWithError
                id="link-locale"
                name="locale"
                label={t("fields.locale")}
                error={errorOf("locale")}
                defaultValue={typed("locale", locale)}
                values={routing.locales}
                labelOf={(value) => t(`locales.${value}`)}
              />
            </div>
            <Field
              id="expires-at"
              name="expiresAt"
              type="datetime-local"
              dir="ltr"
              label={t("fields.expiresAt", { zone: principal.membership!.timeZone })}
              hint={t("fields.expiresAtHint")}
              defaultValue={typed("expiresAt")}
              error={errorOf("expiresAt")}
            />
            <label className="flex min-h-11 items-center gap-3 text-sm font-semibold text-slate-800">
              <input
                type="checkbox"
                name="reusable"
                defaultChecked={failed ? failed.values?.reusable === "on" : true}
                className="size-5"
              />
              {t("fields.reusable")}
            </label>
            <Button type="submit">{t("createButton")}</Button>
          </ConsoleForm>
        </Section>
      ) : null}
      {justCreated && links.length > 0 ? null : linksSection}
    </ConsoleShell>
  );
}

function LinkItem({
  link,
  locale,
  mayManage,
  formToken,
  t,
}: {
  link: PaymentLinkView;
  locale: Locale;
  mayManage: boolean;
  formToken?: string;
  t: Translate;
}) {
  const money = (amount: number) => formatAmount({ amount, currency: link.currency, locale });
  const price =
    link.amount !== null
      ? money(link.amount)
      : link.minAmount !== null || link.maxAmount !== null
        ? t("bounds", {
            min: link.minAmount === null ? "—" : money(link.minAmount),
            max: link.maxAmount === null ? "—" : money(link.maxAmount),
          })
        : t("openAmount");
  const whatsApp = `https://wa.me/?text=${encodeURIComponent(`${link.title} ${link.url}`)}`;
  const headingId = `${link.id}-title`;
  return (
    <li aria-labelledby={headingId} className="flex flex-col gap-3 rounded-xl p-3 ring-1 ring-slate-200">
      <h3 id={headingId} className="font-bold text-slate-900 wrap-anywhere">
        {link.title}
      </h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-700">{t("columns.amount")}</dt>
        <dd dir="ltr" className="text-start">
          {price}
        </dd>
        <dt className="text-slate-700">{t("columns.currency")}</dt>
        <dd>{link.currency}</dd>
        <dt className="text-slate-700">{t("columns.status")}</dt>
        <dd>{link.active ? t("active") : t("inactive")}</dd>
        <dt className="text-slate-700">{t("columns.payments")}</dt>
        <dd>{link.paymentsCount}</dd>
        <dt className="text-slate-700">{t("columns.total")}</dt>
        <dd dir="ltr" className="text-start">
          {money(link.succeededAmount)}
        </dd>
      </dl>
      <ReadOnlyValue id={`${link.id}-url`} label={t("url", { title: link.title })} value={link.url} />
      <div className="flex flex-wrap gap-2">
        <ButtonLink variant="secondary" href={link.qrImageUrl} download={`${link.id}.png`}>
          {t("downloadQr")}
        </ButtonLink>
        <ButtonLink variant="secondary" href={whatsApp} rel="noopener noreferrer" target="_blank">
          {t("shareWhatsApp")}
        </ButtonLink>
        <ButtonLink variant="secondary" href={consolePath.paymentsOfLink(locale, link.id)}>
          {t("payments")}
        </ButtonLink>
      </div>
      {mayManage && link.active ? (
        <details>
          <summary className="min-h-11 cursor-pointer py-2 font-semibold text-rose-800">{t("deactivate")}</summary>
          <ConsoleForm locale={locale} action="deactivate-payment-link" formToken={formToken} label={t("deactivate")}>
            <input type="hidden" name="link" value={link.id} />
            <p className="text-sm text-slate-700">{t("deactivateWarning")}</p>
            <Button type="submit" variant="secondary">
              {t("confirmDeactivate")}
            </Button>
          </ConsoleForm>
        </details>
      ) : null}
    </li>
  );
}

function SelectWithError({
  id,
  name,
  label,
  values,
  defaultValue,
  error,
  labelOf = (value) => value,
}: {
  id: string;
  name: string;
  label: string;
  values: readonly string[];
  defaultValue?: string;
  error: string | null;
  labelOf?: (value: string) => string;
}) {
  return (
    <div className="flex flex-col gap-1">
      <SelectField
        id={id}
        name={name}
        label={label}
        defaultValue={defaultValue}
        options={values.map((value) => ({ value, label: labelOf(value) }))}
      />
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-sm font-medium text-rose-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export const paymentLinksPage = {
  title: { messages: "console.paymentLinks" },
  capability: "payments.read",
  render: renderPaymentLinksPage,
} satisfies ConsolePage;
