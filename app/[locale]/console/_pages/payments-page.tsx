import { ButtonLink, Button } from "@/components/button";
import { Field } from "@/components/field";
import { ConsoleNotice, Section, SelectField } from "@/components/console/console-form";
import { ConsoleShell } from "@/components/console/console-shell";
import { PaymentTable } from "@/components/console/payment-table";
import { paymentLabels } from "@/components/console/payment-labels";
import { consolePath } from "@/lib/console/access/console-paths";
import { listPayments } from "@/lib/console/payments/list-payments";
import { CONSOLE_METHODS, parsePaymentListQuery } from "@/lib/console/payments/payment-list-filters";
import { PAYMENT_STATES } from "@/lib/payments/core/payment-state";
import { paymentLinkTitles } from "@/lib/payment-links/link-titles";
import { fieldProblemText } from "@/components/console/problem-text";
import { queryValue, type ConsolePage, type ConsolePageRequest } from "@/lib/console/web/console-page";
import type { OpenConsolePage } from "@/lib/console/web/open-console-session";

const FILTER_FIELDS = ["method", "currency", "createdFrom", "createdTo", "amountFrom", "amountTo", "q"] as const;

/** The URL query of the current filters (no cursor): shared by the pages' links and "Export CSV". */
function filterQuery(query: ConsolePageRequest["query"]): URLSearchParams {
  const kept = new URLSearchParams();
  const statuses = query.status;
  for (const status of Array.isArray(statuses) ? statuses : statuses ? [statuses] : []) kept.append("status", status);
  for (const name of FILTER_FIELDS) {
    const value = queryValue(query, name)?.trim();
    if (value) kept.set(name, value);
  }
  return kept;
}

/** GET /{locale}/console/payments: newest first, 25 a page by keyset, filters and search in the URL. */
async function renderPaymentsPage(
  { db, locale, principal, formToken }: OpenConsolePage,
  { query }: ConsolePageRequest,
) {
  const { t, status } = paymentLabels(locale);
  const parsed = parsePaymentListQuery(query, principal.membership!);
  const page = parsed.ok
    ? await listPayments(db, { serviceId: principal.membership!.serviceId, query: parsed.query })
    : null;
  const linkTitles = page
    ? await paymentLinkTitles(
        db,
        principal.membership!.serviceId,
        page.rows.map((row) => row.actionId),
      )
    : undefined;
  const problemOf = (field: string) => {
    const problem = parsed.ok ? undefined : parsed.problems.find((found) => found.field === field);
    return problem ? fieldProblemText(locale, problem.message) : undefined;
  };
  const kept = filterQuery(query);
  const linkWith = (extra: Record<string, string>) => {
    const next = new URLSearchParams(kept);
    for (const [name, value] of Object.entries(extra)) next.set(name, value);
    return `${consolePath.payments(locale)}?${next.toString()}`;
  };
  const chosen = new Set(parsed.ok ? parsed.query.filters.states : []);
  // The filters behind the disclosure that are set (the search has its own box): while any is, it stays open.
  const filtersSet = new Set([...kept.keys()].filter((name) => name !== "q")).size;
  const keptWithSemicolons = new URLSearchParams([...kept, ["separator", "semicolon"]]);
  return (
    <ConsoleShell
      locale={locale}
      path="/console/payments"
      principal={principal}
      formToken={formToken}
      title={t("list.title")}
    >
      {/* Results first: the search on top, the other filters behind a disclosure, open while one is set. */}
      <form
        method="get"
        action={consolePath.payments(locale)}
        className="flex flex-col gap-3"
        role="search"
        aria-label={t("list.filters")}
      >
        <Field
          id="q"
          name="q"
          type="search"
          dir="auto"
          label={t("list.search")}
          hint={t("list.searchHint")}
          defaultValue={queryValue(query, "q") ?? ""}
          error={problemOf("q")}
        />
        <details
          open={filtersSet > 0 || undefined}
          className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6"
        >
          <summary className="min-h-11 cursor-pointer content-center text-base font-bold text-slate-900">
            {filtersSet > 0 ? t("list.filtersSet", { count: filtersSet }) : t("list.moreFilters")}
          </summary>
          <div className="flex flex-col gap-4 pt-4">
            <fieldset className="flex flex-col gap-2">
              <legend className="text-sm font-semibold text-slate-800">{t("list.status")}</legend>
              <div className="flex flex-wrap gap-x-4 gap-y-2">
                {PAYMENT_STATES.map((state) => (
                  <label key={state} className="flex min-h-11 items-center gap-2 text-sm">
                    <input
                      type="checkbox"
                      name="status"
                      value={state}
                      defaultChecked={chosen.has(state)}
                      className="size-5"
                    />
                    {status(state)}
                  </label>
                ))}
              </div>
            </fieldset>
            <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
              <SelectField
                id="method"
                name="method"
                label={t("list.method")}
                defaultValue={queryValue(query, "method") ?? ""}
                options={[
                  { value: "", label: t("list.any") },
                  ...CONSOLE_METHODS.map((value) => ({
                    value,
                    label: value === "card" ? t("list.card") : t(`method.${value}`),
                  })),
                ]}
              />
              <Field
                id="currency"
                name="currency"
                label={t("list.currency")}
                defaultValue={queryValue(query, "currency") ?? ""}
                error={problemOf("currency")}
                dir="ltr"
              />
              <Field
                id="createdFrom"
                name="createdFrom"
                type="date"
                label={t("list.createdFrom")}
                defaultValue={queryValue(query, "createdFrom") ?? ""}
                error={problemOf("createdFrom")}
              />
              <Field
                id="createdTo"
                name="createdTo"
                type="date"
                label={t("list.createdTo")}
                defaultValue={queryValue(query, "createdTo") ?? ""}
                error={problemOf("createdTo")}
              />
              <Field
                id="amountFrom"
                name="amountFrom"
                inputMode="decimal"
                label={t("list.amountFrom")}
                defaultValue={queryValue(query, "amountFrom") ?? ""}
                error={problemOf("amountFrom")}
                dir="ltr"
              />
              <Field
                id="amountTo"
                name="amountTo"
                inputMode="decimal"
                label={t("list.amountTo")}
                defaultValue={queryValue(query, "amountTo") ?? ""}
                error={problemOf("amountTo")}
                dir="ltr"
              />
            </div>
          </div>
        </details>
        <div className="flex flex-wrap gap-3">
          <Button type="submit">{t("list.apply")}</Button>
          <ButtonLink variant="quiet" href={`${consolePath.paymentsExport(locale)}?${kept.toString()}`}>
            {t("list.export")}
          </ButtonLink>
          <ButtonLink variant="quiet" href={`${consolePath.paymentsExport(locale)}?${keptWithSemicolons.toString()}`}>
            {t("list.exportSemicolon")}
          </ButtonLink>
        </div>
      </form>
      <Section title={t("list.results")}>
        {!page ? (
          <ConsoleNotice tone="error">{t("list.invalidFilters")}</ConsoleNotice>
        ) : page.rows.length === 0 ? (
          <p className="text-slate-700">{t("list.none")}</p>
        ) : (
          <PaymentTable
            locale={locale}
            timeZone={principal.membership!.timeZone}
            label={t("list.results")}
            rows={page.rows}
            withPhoneAndActionId
            linkTitles={linkTitles}
          />
        )}
        {page ? (
          <nav aria-label={t("list.pages")} className="flex flex-wrap gap-3">
            {page.before ? (
              <ButtonLink variant="quiet" href={linkWith({ before: page.before })}>
                {t("list.previous")}
              </ButtonLink>
            ) : null}
            {page.after ? (
              <ButtonLink variant="quiet" href={linkWith({ after: page.after })}>
                {t("list.next")}
              </ButtonLink>
            ) : null}
          </nav>
        ) : null}
      </Section>
    </ConsoleShell>
  );
}

export const paymentsPage = {
  title: { messages: "consolePayments.list" },
  capability: "payments.read",
  render: renderPaymentsPage,
} satisfies ConsolePage;
