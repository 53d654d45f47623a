import { Button } from "@/components/button";
import { Field } from "@/components/field";
import { ScrollRegion, Section, TableHead } from "@/components/console/console-form";
import { ConsoleShell } from "@/components/console/console-shell";
import { paymentLabels } from "@/components/console/payment-labels";
import { consolePath } from "@/lib/console/access/console-paths";
import { searchCustomers } from "@/lib/console/customers/search-customers";
import { queryValue, type ConsolePage, type ConsolePageRequest } from "@/lib/console/web/console-page";
import type { OpenConsolePage } from "@/lib/console/web/open-console-session";

/** GET /{locale}/console/customers?q=: search by phone, name or email (the beginning of either). */
async function renderCustomersPage(
  { db, locale, principal, formToken }: OpenConsolePage,
  { query }: ConsolePageRequest,
) {
  const { t } = paymentLabels(locale);
  const q = (queryValue(query, "q") ?? "").trim().slice(0, 100);
  const found = q
    ? await searchCustomers(db, {
        serviceId: principal.membership!.serviceId,
        query: q,
        countries: principal.membership!.countries,
      })
    : null;
  return (
    <ConsoleShell
      locale={locale}
      path="/console/customers"
      principal={principal}
      formToken={formToken}
      title={t("customers.title")}
    >
      <Section title={t("customers.searchTitle")}>
        <form
          method="get"
          action={consolePath.customers(locale)}
          role="search"
          aria-label={t("customers.searchTitle")}
          className="flex flex-col gap-4"
        >
          <Field
            id="q"
            name="q"
            type="search"
            dir="auto"
            label={t("list.search")}
            hint={t("customers.searchHint")}
            defaultValue={q}
          />
          <div>
            <Button type="submit">{t("customers.find")}</Button>
          </div>
        </form>
        {found === null ? null : found.length === 0 ? (
          <p className="text-slate-700">{t("customers.none")}</p>
        ) : (
          <ScrollRegion label={t("customers.title")}>
            <table className="w-full min-w-[28rem] text-sm">
              <TableHead columns={[t("customers.name"), t("list.phone"), t("customers.email"), t("customers.state")]} />
              <tbody>
                {found.map((customer) => (
                  <tr key={customer.id} className="border-b border-slate-100">
                    <td className="py-2" data-label={t("customers.name")}>
                      <a
                        dir="auto"
                        className="font-semibold text-teal-800 underline"
                        href={consolePath.customer(locale, customer.id)}
                      >
                        {customer.name}
                      </a>
                    </td>
                    <td className="py-2" data-label={t("list.phone")}>
                      <bdi dir="ltr">{customer.phone}</bdi>
                    </td>
                    <td className="py-2 wrap-anywhere" data-label={t("customers.email")}>
                      <bdi dir="ltr">{customer.email ?? "—"}</bdi>
                    </td>
                    <td className="py-2" data-label={t("customers.state")}>
                      {customer.isActive ? t("customers.active") : t("customers.inactive")}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </Section>
    </ConsoleShell>
  );
}

export const customersPage = {
  title: { messages: "consolePayments.customers" },
  capability: "payments.read",
  render: renderCustomersPage,
} satisfies ConsolePage;
