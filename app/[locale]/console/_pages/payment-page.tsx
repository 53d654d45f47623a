import { randomUUID } from "node:crypto";
import { Button, ButtonLink } from "@/components/button";
import { Field } from "@/components/field";
import { ConsoleForm, ConsoleNotice, ScrollRegion, Section, TableHead } from "@/components/console/console-form";
import { ConsoleShell } from "@/components/console/console-shell";
import { consoleDateTime, deliveryStatusKey, paymentLabels } from "@/components/console/payment-labels";
import { fieldProblemText, operationProblemText } from "@/components/console/problem-text";
import { paymentLinkIdOfActionId, paymentLinkTitles } from "@/lib/payment-links/link-titles";
import { consoleServiceContext, principalMay } from "@/lib/console/access/console-principal";
import { consolePath } from "@/lib/console/access/console-paths";
import { getPaymentDetail, type PaymentDetail } from "@/lib/console/payments/get-payment-detail";
import { ApiError } from "@/lib/errors/api-error";
import { formatMinorAmount } from "@/lib/i18n/format-amount";
import { queryValue, type ConsolePage, type ConsolePageRequest } from "@/lib/console/web/console-page";
import type { OpenConsolePage } from "@/lib/console/web/open-console-session";
import { translator } from "@/lib/i18n/translator";

const OPERATIONS = ["capture", "release", "refund"] as const;
type Operation = (typeof OPERATIONS)[number];

/**
 * GET /{locale}/console/payments/{id}: the payment, its amounts, timeline and events; capture, release and
 * refund behind a confirmation.
 */
async function renderPaymentPage(
  { db, locale, principal, formToken, flash }: OpenConsolePage,
  { params, query }: ConsolePageRequest,
) {
  const service = await consoleServiceContext(db, principal);
  if (!service) return null;
  const detail = await getPaymentDetail(db, { service, paymentId: params.paymentId! }).catch((error: unknown) => {
    if (error instanceof ApiError && error.errorName === "not_found") return null;
    throw error;
  });
  if (!detail) return null;
  const { t, status, method } = paymentLabels(locale);
  const dateTime = consoleDateTime(locale, principal.membership!.timeZone);
  const tEvents = translator(locale, "console.developers");
  const { payment, amounts } = detail;
  const money = (minor: number) => formatMinorAmount({ minor, currency: payment.currency, locale });
  const mayOperate = principalMay(principal, "payments.operate");
  const asked = queryValue(query, "confirm");
  const confirming = OPERATIONS.find((operation) => operation === asked && detail.allows[operation]);
  const error = flash?.kind === "error" && (OPERATIONS as readonly string[]).includes(flash.form) ? flash : null;
  const linkId = paymentLinkIdOfActionId(payment.actionId);
  const linkTitle = linkId ? (await paymentLinkTitles(db, service.id, [payment.actionId])).get(linkId) : undefined;
  // The page's own words for a refusal: the API's message is English (components/console/problem-text.ts).
  const refusalText = error
    ? error.field
      ? fieldProblemText(locale, error.detail)
      : operationProblemText(locale, error.key, {
          refundable: money(amounts.refundableMinor),
          capturable: money(amounts.amountMinor),
          state: status(payment.state),
        })
    : null;
  const facts: [string, string][] = [
    [t("detail.status"), status(payment.state)],
    [t("detail.statusCode"), String(detail.statusCode)],
    [t("detail.amount"), money(amounts.amountMinor)],
    [t("detail.captured"), money(amounts.capturedMinor)],
    [t("detail.refunded"), money(amounts.refundedMinor)],
    [t("detail.refundable"), money(amounts.refundableMinor)],
    [t("list.method"), method(detail.method)],
    ...providerOrderFacts(detail.providerOrder, { t, method: method(detail.method) }),
    [t("list.actionId"), payment.actionId],
    ...(linkTitle === undefined ? [] : [[t("list.paymentLink"), linkTitle] as [string, string]]),
    [t("list.created"), dateTime.format(payment.createdAt)],
    [t("detail.updated"), dateTime.format(payment.updatedAt)],
  ];
  return (
    <ConsoleShell
      locale={locale}
      path={`/console/payments/${payment.id}`}
      principal={principal}
      formToken={formToken}
      title={t("detail.title")}
    >
      {flash?.kind === "notice" && t.has(`detail.notices.${flash.key}`) ? (
        <ConsoleNotice tone="success">{t(`detail.notices.${flash.key}`)}</ConsoleNotice>
      ) : null}
      {error && !error.field ? (
        <ConsoleNotice tone="error">{t("detail.refused", { detail: refusalText ?? "" })}</ConsoleNotice>
      ) : null}
      <Section title={payment.id} id="payment">
        <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
          {facts.map(([term, value]) => (
            <div key={term}>
              <dt className="font-semibold">{term}</dt>
              <dd className="wrap-anywhere">
                <bdi>{value}</bdi>
              </dd>
            </div>
          ))}
        </dl>
        {mayOperate ? (
          <div className="flex flex-wrap gap-3">
            {OPERATIONS.filter((operation) => detail.allows[operation]).map((operation) => (
              <ButtonLink
                key={operation}
                variant="secondary"
                href={`${consolePath.payment(locale, payment.id)}?confirm=${operation}#confirm`}
              >
                {t(`detail.${operation}`)}
              </ButtonLink>
            ))}
          </div>
        ) : null}
        {detail.refundsAtProvider ? (
          <p className="text-sm text-slate-700">{t("detail.refundsAtProvider", { method: method(detail.method) })}</p>
        ) : null}
      </Section>
      {mayOperate && confirming ? (
        <Section title={t(`detail.confirmTitle.${confirming}`)} id="confirm">
          <ConfirmForm
            operation={confirming}
            locale={locale}
            formToken={formToken}
            paymentId={payment.id}
            labels={{
              amount: t("detail.amountField"),
              amountHint:
                confirming === "refund"
                  ? t("detail.refundHint", { currency: payment.currency, max: money(amounts.refundableMinor) })
                  : t("detail.captureHint", { currency: payment.currency, max: money(amounts.amountMinor) }),
              reason: t("detail.reason"),
              confirm: t(`detail.confirm.${confirming}`),
            }}
            values={error?.values ?? {}}
            fieldError={error?.field ? (refusalText ?? undefined) : undefined}
            errorField={error?.field}
          />
        </Section>
      ) : null}
      <Section title={t("detail.customer")}>
        {/* A customer without a name is named by its phone: the phone is then shown once, as the link. */}
        <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-3">
          <div>
            <dt className="font-semibold">
              {detail.customer.name === detail.customer.phone ? t("list.phone") : t("detail.customerName")}
            </dt>
            <dd className="wrap-anywhere">
              <a
                dir="auto"
                className="font-semibold text-teal-800 underline"
                href={consolePath.customer(locale, detail.customer.id)}
              >
                {detail.customer.name}
              </a>
            </dd>
          </div>
          {detail.customer.name === detail.customer.phone ? null : (
            <div>
              <dt className="font-semibold">{t("list.phone")}</dt>
              <dd>
                <bdi dir="ltr">{detail.customer.phone}</bdi>
              </dd>
            </div>
          )}
          {detail.customer.email ? (
            <div>
              <dt className="font-semibold">{t("customers.email")}</dt>
              <dd className="wrap-anywhere">
                <bdi dir="ltr">{detail.customer.email}</bdi>
              </dd>
            </div>
          ) : null}
        </dl>
      </Section>
      <Section title={t("detail.refunds")}>
        {detail.refunds.length === 0 ? (
          <p className="text-slate-700">{t("detail.noRefunds")}</p>
        ) : (
          <ScrollRegion label={t("detail.refunds")}>
            <table className="w-full min-w-[28rem] text-sm">
              <TableHead columns={[t("list.created"), t("detail.amount"), t("detail.reason")]} />
              <tbody>
                {detail.refunds.map((refund) => (
                  <tr key={refund.id} className="border-b border-slate-100">
                    <td className="py-2" data-label={t("list.created")}>
                      {dateTime.format(refund.createdAt)}
                    </td>
                    <td className="py-2" data-label={t("detail.amount")}>
                      {money(refund.amountMinor)}
                    </td>
                    <td className="py-2 wrap-anywhere" data-label={t("detail.reason")}>
                      <bdi>{refund.reason ?? refund.description}</bdi>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </Section>
      <Section title={t("detail.timeline")}>
        <ol className="flex flex-col gap-2 text-sm">
          {detail.timeline.map((entry, index) => (
            <li key={index} className="flex flex-wrap gap-x-3">
              <time dateTime={entry.at.toISOString()}>{dateTime.format(entry.at)}</time>
              <span className="font-semibold">{status(entry.to)}</span>
              {entry.cause.kind === "console" ? (
                <bdi dir="ltr">{entry.cause.userEmail}</bdi>
              ) : (
                <span>{t(`cause.${entry.cause.kind}`)}</span>
              )}
            </li>
          ))}
        </ol>
      </Section>
      <Section title={t("detail.events")}>
        {detail.events.length === 0 ? (
          <p className="text-slate-700">{t("detail.noEvents")}</p>
        ) : (
          <ScrollRegion label={t("detail.events")}>
            <table className="w-full min-w-[32rem] text-sm">
              <TableHead
                columns={[t("list.created"), t("detail.eventType"), tEvents("delivery"), tEvents("attempts"), ""]}
              />
              <tbody>
                {detail.events.map((event) => (
                  <tr key={event.id} className="border-b border-slate-100">
                    <td className="py-2" data-label={t("list.created")}>
                      {event.createdAt ? dateTime.format(event.createdAt) : "—"}
                    </td>
                    <td className="py-2" data-label={t("detail.eventType")}>
                      <bdi dir="ltr" className="font-mono text-xs">
                        {event.type}
                      </bdi>
                    </td>
                    <td className="py-2" data-label={tEvents("delivery")}>
                      {tEvents(deliveryStatusKey(event.delivery))}
                    </td>
                    <td className="py-2" data-label={tEvents("attempts")}>
                      {event.delivery.attempts}
                    </td>
                    <td className="py-2">
                      {principalMay(principal, "integration.manage") ? (
                        <ConsoleForm
                          locale={locale}
                          action="redeliver"
                          formToken={formToken}
                          label={`${tEvents("redeliver")} ${event.id}`}
                        >
                          <input type="hidden" name="event" value={event.id} />
                          <Button type="submit" variant="quiet">
                            {tEvents("redeliver")}
                          </Button>
                        </ConsoleForm>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </Section>
      <ButtonLink variant="quiet" href={consolePath.payments(locale)}>
        {t("detail.back")}
      </ButtonLink>
    </ConsoleShell>
  );
}

/**
 * A redirect method's order at its provider, as the merchant quotes it to its bank: the
 * provider's order number, the authorization code once the provider reported one, or that the
 * provider gives none (Chargily).
 */
function providerOrderFacts(
  order: PaymentDetail["providerOrder"],
  { t, method }: { t: ReturnType<typeof paymentLabels>["t"]; method: string },
): [string, string][] {
  if (!order) return [];
  const facts: [string, string][] = [];
  if (order.orderId) facts.push([t("detail.providerOrderId"), order.orderId]);
  if (order.authorizationCode) facts.push([t("detail.authorizationCode"), order.authorizationCode]);
  else if (!order.givesAuthorizationCode && order.orderId)
    facts.push([t("detail.authorizationCode"), t("detail.noAuthorizationCode", { method })]);
  return facts;
}

/**
 * The confirmation of one operation: a fresh random formKey each time it is shown, so a repost of this very
 * form runs once.
 */
function ConfirmForm(props: {
  operation: Operation;
  locale: Parameters<typeof consolePath.payment>[0];
  formToken: string;
  paymentId: string;
  labels: { amount: string; amountHint: string; reason: string; confirm: string };
  values: Record<string, string>;
  fieldError?: string;
  errorField?: string;
}) {
  const { operation, labels } = props;
  return (
    <ConsoleForm
      locale={props.locale}
      action={`payment-${operation}`}
      formToken={props.formToken}
      label={labels.confirm}
    >
      <input type="hidden" name="paymentId" value={props.paymentId} />
      <input type="hidden" name="formKey" value={randomUUID()} />
      {operation === "release" ? null : (
        <Field
          id="amount"
          name="amount"
          inputMode="decimal"
          dir="ltr"
          label={labels.amount}
          hint={labels.amountHint}
          defaultValue={props.values.amount ?? ""}
          error={props.errorField === "amount" ? props.fieldError : undefined}
        />
      )}
      {operation === "refund" ? (
        <Field
          id="reason"
          name="reason"
          required
          label={labels.reason}
          defaultValue={props.values.reason ?? ""}
          error={props.errorField === "description" || props.errorField === "reason" ? props.fieldError : undefined}
        />
      ) : null}
      <Button type="submit">{labels.confirm}</Button>
    </ConsoleForm>
  );
}

export const paymentPage = {
  title: { messages: "consolePayments.detail" },
  capability: "payments.read",
  render: renderPaymentPage,
} satisfies ConsolePage;
