import { consoleDateTime } from "@/components/console/payment-labels";
import { Button, ButtonLink } from "@/components/button";
import { ScrollRegion, Section, TableHead, SelectField } from "@/components/console/console-form";
import { AuditTarget } from "@/components/console/audit-target";
import { ConsoleShell } from "@/components/console/console-shell";
import { Field } from "@/components/field";
import { AUDIT_ACTIONS, isAuditAction } from "@/lib/audit-log/audit-actions";
import { listAuditEntries } from "@/lib/audit-log/list-audit-entries";
import { consolePath } from "@/lib/console/access/console-paths";
import { queryValue, type ConsolePage, type ConsolePageRequest } from "@/lib/console/web/console-page";
import type { OpenConsolePage } from "@/lib/console/web/open-console-session";
import { translator } from "@/lib/i18n/translator";

/** GET /{locale}/console/audit-log (owners): newest first, filtered by user and action (kept in the URL). */
async function renderAuditLogPage(
  { db, locale, principal, formToken }: OpenConsolePage,
  { query }: ConsolePageRequest,
) {
  const t = translator(locale, "console.auditLog");
  const user = queryValue(query, "user")?.trim() || undefined;
  const action = queryValue(query, "action");
  const before = Number(queryValue(query, "before")) || undefined;
  const { entries, hasMore } = await listAuditEntries(db, {
    serviceId: principal.membership!.serviceId,
    userEmail: user,
    action: isAuditAction(action) ? action : undefined,
    before,
  });
  const kept = { ...(user ? { user } : {}), ...(isAuditAction(action) ? { action } : {}) };
  const nextPage = hasMore ? `?${new URLSearchParams({ ...kept, before: String(entries.at(-1)!.id) })}` : null;
  const dateTime = consoleDateTime(locale, principal.membership!.timeZone);
  return (
    <ConsoleShell
      locale={locale}
      path="/console/audit-log"
      principal={principal}
      formToken={formToken}
      title={t("title")}
    >
      <Section title={t("filter")}>
        <form
          method="get"
          action={consolePath.auditLog(locale)}
          className="grid grid-cols-1 gap-3 sm:grid-cols-3 sm:items-end"
        >
          <Field
            id="audit-user"
            name="user"
            type="email"
            label={t("user")}
            placeholder={t("userHint")}
            defaultValue={user ?? ""}
            className="min-h-12 text-base"
          />
          <SelectField
            id="audit-action"
            name="action"
            label={t("action")}
            defaultValue={isAuditAction(action) ? action : ""}
            options={[
              { value: "", label: t("any") },
              ...AUDIT_ACTIONS.map((name) => ({ value: name, label: t(`actions.${name}`) })),
            ]}
          />
          <Button type="submit" variant="secondary">
            {t("filter")}
          </Button>
        </form>
        {entries.length === 0 ? (
          <p className="text-slate-700">{t("empty")}</p>
        ) : (
          <ScrollRegion label={t("title")}>
            <table className="w-full min-w-[36rem] text-sm">
              <TableHead columns={[t("at"), t("user"), t("action"), t("target"), t("ip")]} />
              <tbody>
                {entries.map((entry) => (
                  <tr key={entry.id} className="border-b border-slate-100 align-top">
                    <td className="py-2" data-label={t("at")}>
                      {dateTime.format(entry.at)}
                    </td>
                    <td className="py-2 wrap-anywhere" data-label={t("user")}>
                      <bdi dir="ltr">{entry.userEmail}</bdi>
                    </td>
                    <td className="py-2" data-label={t("action")}>
                      {isAuditAction(entry.action) ? t(`actions.${entry.action}`) : entry.action}
                    </td>
                    <td className="py-2 wrap-anywhere" data-label={t("target")}>
                      {/* One element: a card's cell is a grid of its label and one value. */}
                      <span>
                        <AuditTarget locale={locale} target={entry.target} />
                      </span>
                    </td>
                    <td className="py-2" data-label={t("ip")}>
                      <bdi dir="ltr" className="font-mono text-xs">
                        {entry.ip ?? "—"}
                      </bdi>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </ScrollRegion>
        )}
        {nextPage ? (
          <ButtonLink variant="quiet" href={`${consolePath.auditLog(locale)}${nextPage}`}>
            {t("nextPage")}
          </ButtonLink>
        ) : null}
      </Section>
    </ConsoleShell>
  );
}

export const auditLogPage = {
  title: { messages: "console.auditLog" },
  capability: "team.manage",
  render: renderAuditLogPage,
} satisfies ConsolePage;
