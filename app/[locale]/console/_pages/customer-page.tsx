import { Button, ButtonLink } from "@/components/button";
import { ConsoleForm, ConsoleNotice, Section } from "@/components/console/console-form";
import { ConsoleShell } from "@/components/console/console-shell";
import { PaymentTable } from "@/components/console/payment-table";
import { paymentLabels } from "@/components/console/payment-labels";
import { principalMay } from "@/lib/console/access/console-principal";
import { consolePath } from "@/lib/console/access/console-paths";
import { getCustomerDetail } from "@/lib/console/customers/get-customer-detail";
import { decodePaymentCursor } from "@/lib/console/payments/payment-cursor";
import { ApiError } from "@/lib/errors/api-error";
import { queryValue, type ConsolePage, type ConsolePageRequest } from "@/lib/console/web/console-page";
import type { OpenConsolePage } from "@/lib/console/web/open-console-session";

/**
 * GET /{locale}/console/customers/{id}: its payments (keyset), saved cards with "Delete", "Deactivate";
 * another merchant's customer is 404.
 */
async function renderCustomerPage(
  { db, locale, principal, formToken, flash }: OpenConsolePage,
  { params, query }: ConsolePageRequest,
) {
  const afterText = queryValue(query, "after");
  const detail = await getCustomerDetail(db, {
    serviceId: principal.membership!.serviceId,
    customerId: params.customerId!,
    after: afterText ? decodePaymentCursor(afterText) : null,
  }).catch((error: unknown) => {
    if (error instanceof ApiError && error.errorName === "not_found") return null;
    throw error;
  });
  if (!detail) return null;
  const { t } = paymentLabels(locale);
  const { customer } = detail;
  const mayChange = principalMay(principal, "payments.operate");
  return (
    <ConsoleShell
      locale={locale}
      path={`/console/customers/${customer.id}`}
      principal={principal}
      formToken={formToken}
      title={customer.name}
    >
      {flash?.kind === "notice" && t.has(`customers.notices.${flash.key}`) ? (
        <ConsoleNotice tone="success">{t(`customers.notices.${flash.key}`)}</ConsoleNotice>
      ) : null}
      <Section title={t("customers.customer")}>
        <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
          <div>
            <dt className="font-semibold">{t("list.phone")}</dt>
            <dd dir="ltr">{customer.phone}</dd>
          </div>
          <div>
            <dt className="font-semibold">{t("customers.email")}</dt>
            <dd dir="ltr" className="wrap-anywhere">
              {customer.email ?? "—"}
            </dd>
          </div>
          <div>
            <dt className="font-semibold">{t("customers.state")}</dt>
            <dd>{customer.isActive ? t("customers.active") : t("customers.inactive")}</dd>
          </div>
        </dl>
        {mayChange && customer.isActive ? (
          <ConsoleForm
            locale={locale}
            action="customer-deactivate"
            formToken={formToken}
            label={t("customers.deactivate")}
          >
            <input type="hidden" name="customerId" value={customer.id} />
            <div>
              <Button type="submit" variant="secondary">
                {t("customers.deactivate")}
              </Button>
            </div>
          </ConsoleForm>
        ) : null}
      </Section>
      <Section title={t("customers.cards")}>
        {detail.cards.length === 0 ? (
          <p className="text-slate-700">{t("customers.noCards")}</p>
        ) : (
          <ul className="flex flex-col gap-3">
            {detail.cards.map((card) => (
              <li key={card.id} className="flex flex-wrap items-center gap-3">
                <span>{t("method.card", { brand: card.brand, last4: card.last4 })}</span>
                <span dir="ltr">
                  {card.expMonth && card.expYear ? `${String(card.expMonth).padStart(2, "0")}/${card.expYear}` : "—"}
                </span>
                {mayChange ? (
                  <ConsoleForm
                    locale={locale}
                    action="customer-card-delete"
                    formToken={formToken}
                    label={`${t("customers.deleteCard")} ${card.last4}`}
                  >
                    <input type="hidden" name="customerId" value={customer.id} />
                    <input type="hidden" name="cardId" value={card.id} />
                    <Button type="submit" variant="quiet">
                      {t("customers.deleteCard")}
                    </Button>
                  </ConsoleForm>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Section title={t("list.title")}>
        {detail.payments.rows.length === 0 ? (
          <p className="text-slate-700">{t("list.none")}</p>
        ) : (
          <PaymentTable
            locale={locale}
            timeZone={principal.membership!.timeZone}
            label={t("list.title")}
            rows={detail.payments.rows}
            withPhoneAndActionId={false}
          />
        )}
        {detail.payments.after ? (
          <ButtonLink
            variant="quiet"
            href={`${consolePath.customer(locale, customer.id)}?after=${encodeURIComponent(detail.payments.after)}`}
          >
            {t("list.next")}
          </ButtonLink>
        ) : null}
      </Section>
    </ConsoleShell>
  );
}

export const customerPage = {
  title: { messages: "consolePayments.customerPage" },
  capability: "payments.read",
  render: renderCustomerPage,
} satisfies ConsolePage;
