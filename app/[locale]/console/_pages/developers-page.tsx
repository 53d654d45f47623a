import { consoleDateTime, deliveryStatusKey } from "@/components/console/payment-labels";
import { fieldProblemText } from "@/components/console/problem-text";
import { Button, ButtonLink } from "@/components/button";
import {
  ConsoleForm,
  ConsoleNotice,
  ReadOnlyValue,
  ScrollRegion,
  Section,
  TableHead,
  SelectField,
} from "@/components/console/console-form";
import { ConsoleShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { getMerchantKeys } from "@/lib/console/merchants/merchant-keys";
import { consolePath } from "@/lib/console/access/console-paths";
import { principalMay } from "@/lib/console/access/console-principal";
import { DELIVERY_STATUSES, EVENT_TYPES, listEventsQuery } from "@/lib/events/events.schema";
import { listEvents } from "@/lib/events/list-events";
import { queryValue, type ConsolePage, type ConsolePageRequest } from "@/lib/console/web/console-page";
import type { OpenConsolePage } from "@/lib/console/web/open-console-session";
import { translator } from "@/lib/i18n/translator";

/** The two secrets a member may roll, each behind its confirmation (`?confirm=`). */
const ROLLS = [
  { confirm: "client-secret", action: "roll-client-secret", label: "rollClientSecret" },
  { confirm: "webhook-secret", action: "roll-webhook-secret", label: "rollWebhookSecret" },
] as const;

/**
 * GET /{locale}/console/developers (owners, developers): keys, secret rolls, webhook URL, events with their
 * filters.
 */
async function renderDevelopersPage(
  { db, locale, principal, formToken, flash }: OpenConsolePage,
  { query }: ConsolePageRequest,
) {
  const serviceId = principal.membership!.serviceId;
  const t = translator(locale, "console.developers");
  const keys = await getMerchantKeys(db, serviceId);
  const filters = {
    type: queryValue(query, "type") || undefined,
    deliveryStatus: queryValue(query, "deliveryStatus") || undefined,
    paymentId: queryValue(query, "paymentId")?.trim() || undefined,
    startingAfter: queryValue(query, "startingAfter") || undefined,
  };
  // Filters live in the URL; one that does not parse lists nothing rather than everything.
  const parsed = listEventsQuery.safeParse({ ...filters, limit: 25 });
  const { events, hasMore } = parsed.success
    ? await listEvents(db, { serviceId, ...parsed.data })
    : { events: [], hasMore: false };
  const setFilters = Object.fromEntries(Object.entries(filters).filter(([, value]) => value));
  const nextPage = hasMore ? `?${new URLSearchParams({ ...setFilters, startingAfter: events.at(-1)!.id })}` : null;
  const webhookError =
    flash?.kind === "error" && flash.form === "webhook"
      ? t(`errors.${flash.key}`, { detail: fieldProblemText(locale, flash.detail) })
      : null;
  const confirming =
    flash?.kind === "new_secret" ? undefined : ROLLS.find((roll) => roll.confirm === queryValue(query, "confirm"));
  const dateTime = consoleDateTime(locale, principal.membership!.timeZone);
  return (
    <ConsoleShell
      locale={locale}
      path="/console/developers"
      principal={principal}
      formToken={formToken}
      title={t("title")}
    >
      {flash?.kind === "notice" && t.has(`notices.${flash.key}`) ? (
        <ConsoleNotice tone="success">{t(`notices.${flash.key}`)}</ConsoleNotice>
      ) : null}
      <Section title={t("keysTitle")}>
        <ReadOnlyValue id="client-id" label={t("clientId")} value={keys.clientId} />
        <ReadOnlyValue id="publishable-key" label={t("publishableKey")} value={keys.publishableKey} />
        {flash?.kind === "new_secret" ? (
          <div className="flex flex-col gap-2 rounded-xl bg-amber-50 p-3 ring-1 ring-amber-200">
            <p className="font-semibold">
              {flash.secret === "client_secret" ? t("rollClientSecret") : t("rollWebhookSecret")}
            </p>
            <ReadOnlyValue id="new-secret" label={t("newSecret")} value={flash.value} hint={t("newSecretIntro")} />
          </div>
        ) : null}
        <p className="text-sm text-slate-700">{t("rollIntro")}</p>
        <div className="flex flex-wrap gap-3">
          {ROLLS.map((roll) => (
            <ButtonLink
              key={roll.confirm}
              variant="secondary"
              href={`${consolePath.developers(locale)}?confirm=${roll.confirm}#confirm-roll`}
            >
              {t(roll.label)}
            </ButtonLink>
          ))}
        </div>
      </Section>
      {confirming ? (
        // Cutting the merchant's integration off takes a second, deliberate step, as capture and refund do
        // (a page, no script).
        <Section title={t(`confirmRoll.${confirming.confirm}.title`)} id="confirm-roll">
          <p className="text-sm text-slate-800">{t(`confirmRoll.${confirming.confirm}.warning`)}</p>
          <div className="flex flex-wrap gap-3">
            <ConsoleForm locale={locale} action={confirming.action} formToken={formToken} className="flex">
              <Button type="submit" className="w-auto">
                {t("confirmRoll.submit")}
              </Button>
            </ConsoleForm>
            <ButtonLink variant="quiet" href={consolePath.developers(locale)}>
              {t("confirmRoll.cancel")}
            </ButtonLink>
          </div>
        </Section>
      ) : null}

      {principalMay(principal, "integration.manage") ? (
        <Section title={t("webhookTitle")}>
          <ConsoleForm locale={locale} action="webhook-url" formToken={formToken}>
            <Field
              id="webhook-url"
              name="webhookUrl"
              type="url"
              dir="ltr"
              label={t("webhookUrl")}
              hint={t("webhookHint")}
              maxLength={2048}
              defaultValue={
                flash?.kind === "error" && flash.form === "webhook" ? flash.values?.webhookUrl : (keys.webhookUrl ?? "")
              }
              error={webhookError}
            />
            <Button type="submit" variant="secondary">
              {t("saveWebhook")}
            </Button>
          </ConsoleForm>
        </Section>
      ) : null}

      <Section title={t("eventsTitle")} id="events">
        <form
          method="get"
          action={consolePath.developers(locale)}
          className="grid grid-cols-1 gap-3 sm:grid-cols-4 sm:items-end"
        >
          <SelectField
            id="event-type"
            name="type"
            label={t("type")}
            defaultValue={filters.type ?? ""}
            options={[{ value: "", label: t("any") }, ...EVENT_TYPES.map((type) => ({ value: type, label: type }))]}
          />
          <SelectField
            id="event-delivery"
            name="deliveryStatus"
            label={t("delivery")}
            defaultValue={filters.deliveryStatus ?? ""}
            options={[
              { value: "", label: t("any") },
              ...DELIVERY_STATUSES.map((status) => ({ value: status, label: t(`status.${status}`) })),
            ]}
          />
          <Field
            id="event-payment"
            name="paymentId"
            label={t("paymentId")}
            dir="ltr"
            defaultValue={filters.paymentId ?? ""}
            className="min-h-12 text-base"
          />
          <Button type="submit" variant="secondary">
            {t("filter")}
          </Button>
        </form>
        {events.length === 0 ? (
          <p className="text-slate-700">{t("noEvents")}</p>
        ) : (
          <ScrollRegion label={t("eventsTitle")}>
            <table className="w-full min-w-[36rem] text-start text-sm">
              <TableHead columns={[t("created"), t("type"), t("paymentId"), t("delivery"), t("attempts")]} />
              <tbody>
                {events.map((event) => (
                  <tr key={event.id} className="border-b border-slate-100">
                    <td className="py-2" data-label={t("created")}>
                      <a href={consolePath.event(locale, event.id)} className="font-medium text-teal-800 underline">
                        {dateTime.format(new Date(event.createdAt))}
                      </a>
                    </td>
                    <td className="py-2" data-label={t("type")}>
                      <bdi dir="ltr" className="font-mono">
                        {event.type}
                      </bdi>
                    </td>
                    <td className="py-2" data-label={t("paymentId")}>
                      <bdi dir="ltr" className="font-mono text-xs">
                        {event.data.paymentId}
                      </bdi>
                    </td>
                    <td className="py-2" data-label={t("delivery")}>
                      {t(deliveryStatusKey(event.delivery))}
                    </td>
                    <td className="py-2" data-label={t("attempts")}>
                      {event.delivery.attempts}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
        {nextPage ? (
          <ButtonLink variant="quiet" href={`${consolePath.developers(locale)}${nextPage}#events`}>
            {t("nextPage")}
          </ButtonLink>
        ) : null}
      </Section>
    </ConsoleShell>
  );
}

export const developersPage = {
  title: { messages: "console.developers" },
  capability: "keys.manage",
  render: renderDevelopersPage,
} satisfies ConsolePage;
