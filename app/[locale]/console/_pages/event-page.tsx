import { consoleDateTime, deliveryStatusKey } from "@/components/console/payment-labels";
import { fieldProblemText } from "@/components/console/problem-text";
import { Button, ButtonLink } from "@/components/button";
import { ConsoleForm, ConsoleNotice, Section, ScrollRegion, TableHead } from "@/components/console/console-form";
import { ConsoleShell } from "@/components/console/console-shell";
import { principalMay } from "@/lib/console/access/console-principal";
import { consolePath } from "@/lib/console/access/console-paths";
import { ApiError } from "@/lib/errors/api-error";
import { getEvent } from "@/lib/events/get-event";
import type { ConsolePage, ConsolePageRequest } from "@/lib/console/web/console-page";
import type { OpenConsolePage } from "@/lib/console/web/open-console-session";
import { translator } from "@/lib/i18n/translator";

/**
 * GET /{locale}/console/developers/events/{id}: one event, its attempts and "Redeliver"; another merchant's
 * event is 404.
 */
async function renderEventPage(
  { db, locale, principal, formToken, flash }: OpenConsolePage,
  { params }: ConsolePageRequest,
) {
  const t = translator(locale, "console.developers");
  const event = await getEvent(db, { serviceId: principal.membership!.serviceId, id: params.eventId! }).catch(
    (error: unknown) => {
      if (error instanceof ApiError && error.errorName === "not_found") return null;
      throw error;
    },
  );
  if (!event) return null;
  const dateTime = consoleDateTime(locale, principal.membership!.timeZone);
  return (
    <ConsoleShell
      locale={locale}
      path={`/console/developers/events/${event.id}`}
      principal={principal}
      formToken={formToken}
      title={`${t("eventTitle")} ${event.type}`}
    >
      {flash?.kind === "notice" && t.has(`notices.${flash.key}`) ? (
        <ConsoleNotice tone="success">{t(`notices.${flash.key}`)}</ConsoleNotice>
      ) : null}
      {flash?.kind === "error" && flash.form === "redeliver" ? (
        <ConsoleNotice tone="error">
          {t("errors.redeliverRefused", { detail: fieldProblemText(locale, flash.detail) })}
        </ConsoleNotice>
      ) : null}
      <Section title={event.id}>
        <dl className="grid grid-cols-1 gap-2 text-sm sm:grid-cols-2">
          <div>
            <dt className="font-semibold">{t("created")}</dt>
            <dd>{dateTime.format(new Date(event.createdAt))}</dd>
          </div>
          <div>
            <dt className="font-semibold">{t("paymentId")}</dt>
            <dd className="font-mono text-xs wrap-anywhere">
              <bdi dir="ltr">{event.data.paymentId}</bdi>
            </dd>
          </div>
          <div>
            <dt className="font-semibold">{t("delivery")}</dt>
            <dd>{t(deliveryStatusKey(event.delivery))}</dd>
          </div>
          <div>
            <dt className="font-semibold">{t("attempts")}</dt>
            <dd>{event.delivery.attempts}</dd>
          </div>
        </dl>
        {/* Wrapped, not scrolled: a long id or URL breaks its line instead of widening the page. */}
        <pre dir="ltr" className="rounded-lg bg-slate-100 p-3 text-xs whitespace-pre-wrap wrap-anywhere">
          {JSON.stringify(event.data, null, 2)}
        </pre>
        {principalMay(principal, "integration.manage") ? (
          <ConsoleForm locale={locale} action="redeliver" formToken={formToken}>
            <input type="hidden" name="event" value={event.id} />
            <Button type="submit">{t("redeliver")}</Button>
          </ConsoleForm>
        ) : null}
      </Section>
      <Section title={t("attempts")}>
        {event.attempts.length === 0 ? (
          <p className="text-slate-700">{t("noAttempts")}</p>
        ) : (
          <ScrollRegion label={t("attempts")}>
            <table className="w-full min-w-[28rem] text-sm">
              <TableHead columns={[t("attemptAt"), t("statusCode"), t("error"), t("duration")]} />
              <tbody>
                {event.attempts.map((attempt) => (
                  <tr key={attempt.at} className="border-b border-slate-100">
                    <td className="py-2" data-label={t("attemptAt")}>
                      {dateTime.format(new Date(attempt.at))}
                    </td>
                    <td className="py-2" data-label={t("statusCode")}>
                      {attempt.statusCode ?? "—"}
                    </td>
                    <td className="py-2 wrap-anywhere" data-label={t("error")}>
                      <bdi dir="ltr">{attempt.error ?? "—"}</bdi>
                    </td>
                    <td className="py-2" data-label={t("duration")}>
                      {attempt.durationMs ?? "—"}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
      </Section>
      <ButtonLink variant="quiet" href={`${consolePath.developers(locale)}#events`}>
        {t("backToEvents")}
      </ButtonLink>
    </ConsoleShell>
  );
}

export const eventPage = {
  title: { messages: "console.eventPage" },
  capability: "keys.manage",
  render: renderEventPage,
} satisfies ConsolePage;
