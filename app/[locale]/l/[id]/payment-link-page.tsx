import { translator } from "@/lib/i18n/translator";
import {
  PAGE_NOT_FOUND,
  redirectTo,
  type HostedPage,
  type HostedPageAnswer,
  type HostedPageHead,
  type HostedPageRequest,
} from "@/lib/hosted/hosted-page";
import { Button } from "@/components/button";
import { CardShell } from "@/components/card-shell";
import { Field } from "@/components/field";
import { MethodChoice } from "@/components/method-choice";
import { StatusBanner } from "@/components/status-banner";
import { getDb } from "@/lib/db/client";
import { FORM_TOKEN_FIELD } from "@/lib/hosted/hosted-form-route";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import { getPaymentLinkPreview } from "@/lib/hosted/views/payment-link-metadata";
import { getPaymentLinkPageView, type LinkFormProblemCode } from "@/lib/hosted/views/payment-link-page-view";
import { formatAmount } from "@/lib/i18n/format-amount";
import { paymentLinkFormPath, paymentLinkPathWithoutLocale } from "@/lib/urls/payment-link-urls";

/** Title and Open Graph tags in the link's own language, so a chat app's preview reads as the merchant wrote it. */
async function headOf(linkId: string): Promise<HostedPageHead> {
  const preview = await getPaymentLinkPreview(linkId);
  if (!preview) return {};
  return {
    title: preview.title,
    description: preview.description,
    openGraph: { title: preview.title, description: preview.description, url: preview.url, locale: preview.ogLocale },
  };
}

/** GET /{locale}/l/{id}: a payment link's page (contract 14): who is paid, how much, the buyer's phone and method. */
async function render({ locale, params, query: raw }: HostedPageRequest): Promise<HostedPageAnswer> {
  const id = params.id!;
  const query = hostedPageQuery(raw);
  const first = (name: string) => (Array.isArray(raw[name]) ? raw[name][0] : raw[name]);
  const view = await getPaymentLinkPageView(await getDb(), {
    locale,
    linkId: id,
    query: { amount: first("amount"), phone: first("phone"), method: first("method"), errors: first("errors") },
  });
  if (view.kind === "not_found") return PAGE_NOT_FOUND;
  if (view.kind === "redirect") return redirectTo(view.location);

  const t = translator(locale, "paymentLink");
  const tCommon = translator(locale, "common");
  const money = (amount: number) => formatAmount({ amount, currency: view.currency, locale });
  const has = (code: LinkFormProblemCode) => view.problems.includes(code);
  const amountError = amountErrorText(view, t, money);
  const phoneExample = `${view.callingCode}555123456`;
  const phoneError = has("phone:required")
    ? t("phoneRequired")
    : has("phone:format")
      ? t("phoneFormat", { example: phoneExample })
      : null;
  const { min, max } = view.bounds;
  const amountHint =
    min !== null && max !== null
      ? t("amountHintBetween", { min: money(min), max: money(max) })
      : min !== null
        ? t("amountHintMin", { min: money(min) })
        : max !== null
          ? t("amountHintMax", { max: money(max) })
          : t("amountHintAny", { currency: view.currency });

  return {
    kind: "page",
    head: await headOf(id),
    element: (
      <CardShell locale={locale} path={paymentLinkPathWithoutLocale(id)} search={query.search}>
        <div className="flex flex-col gap-2">
          <p className="text-sm font-semibold text-teal-800">{t("payTo", { merchant: view.merchantName })}</p>
          <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900">{view.title}</h1>
          {view.description ? (
            <p className="break-words whitespace-pre-line text-slate-700">{view.description}</p>
          ) : null}
        </div>
        {view.amount !== null ? (
          <dl className="rounded-xl bg-slate-50 px-4 py-4 ring-1 ring-slate-200">
            <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{tCommon("amount")}</dt>
            <dd className="text-3xl font-bold tracking-tight text-slate-900 tabular-nums">
              <bdi>{money(view.amount)}</bdi>
            </dd>
          </dl>
        ) : null}
        {has("form:busy") ? (
          <StatusBanner tone="warning" role="alert">
            {t("busy")}
          </StatusBanner>
        ) : null}
        {has("form:too_many") ? (
          <StatusBanner tone="warning" role="alert">
            {t("tooMany")}
          </StatusBanner>
        ) : null}
        {has("form:error") ? (
          <StatusBanner tone="error" role="alert">
            {t("error")}
          </StatusBanner>
        ) : null}
        {view.methods.length === 0 ? (
          // No method is enabled for the link's country: a form here could only fail.
          <StatusBanner tone="warning" role="alert">
            {t("noMethods", { merchant: view.merchantName })}
          </StatusBanner>
        ) : (
          <form
            method="post"
            action={paymentLinkFormPath({ locale, linkId: id })}
            noValidate
            className="flex flex-col gap-5"
          >
            <input type="hidden" name="link" value={id} />
            <input type="hidden" name={FORM_TOKEN_FIELD} value={view.formToken} />
            <input type="hidden" name="attempt" value={view.attempt} />
            {view.amount === null ? (
              <Field
                id="link-amount"
                name="amount"
                label={t("amountLabel")}
                hint={amountHint}
                error={amountError}
                defaultValue={view.entered.amount}
                type="text"
                inputMode="decimal"
                autoComplete="off"
                dir="ltr"
                required
              />
            ) : null}
            <Field
              id="link-phone"
              name="phone"
              label={t("phoneLabel")}
              hint={t("phoneHint", { example: phoneExample })}
              error={phoneError}
              defaultValue={view.entered.phone}
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              dir="ltr"
              required
            />
            <MethodChoice locale={locale} methods={view.methods} checked={view.entered.method} />
            <Button type="submit">{translator(locale, "checkout")("continue")}</Button>
          </form>
        )}
      </CardShell>
    ),
  };
}

function amountErrorText(
  view: { problems: LinkFormProblemCode[]; bounds: { min: number | null; max: number | null }; currency: string },
  t: (key: string, values?: Record<string, string>) => string,
  money: (amount: number) => string,
): string | null {
  const has = (code: LinkFormProblemCode) => view.problems.includes(code);
  if (has("amount:required")) return t("amountRequired");
  if (has("amount:format")) return t("amountFormat", { currency: view.currency });
  if (has("amount:below_min") && view.bounds.min !== null) return t("amountBelowMin", { min: money(view.bounds.min) });
  if (has("amount:above_max") && view.bounds.max !== null) return t("amountAboveMax", { max: money(view.bounds.max) });
  return null;
}

export const paymentLinkPage: HostedPage = { render };
