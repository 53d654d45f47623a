import { ScrollRegion, TableHead } from "@/components/console/console-form";
import { IsolatedText } from "@/components/console/isolated-text";
import { consoleDateTime, paymentLabels } from "@/components/console/payment-labels";
import { consolePath } from "@/lib/console/access/console-paths";
import type { PaymentListRow } from "@/lib/console/payments/payment-list-row";
import { formatMinorAmount } from "@/lib/i18n/format-amount";
import { paymentLinkIdOfActionId } from "@/lib/payment-links/link-titles";
import type { Locale } from "@/lib/i18n/routing";

/**
 * Payments as the console lists them (contract 13's columns), each row linking to its detail:
 * the payments list and a customer's page render this one table. A customer's page leaves out
 * the phone (its own) and the actionId.
 */
export function PaymentTable({
  locale,
  timeZone,
  label,
  rows,
  withPhoneAndActionId,
  linkTitles,
}: {
  locale: Locale;
  /** The merchant's (Membership.timeZone). */
  timeZone: string;
  label: string;
  rows: readonly PaymentListRow[];
  withPhoneAndActionId: boolean;
  /**
   * The titles of the payment links whose payments these are, by link id (lib/payment-links/link-titles.ts):
   * shown instead of their actionId.
   */
  linkTitles?: ReadonlyMap<string, string>;
}) {
  const { t, status, method } = paymentLabels(locale);
  const dateTime = consoleDateTime(locale, timeZone);
  const columns = [t("list.created"), t("list.amount"), t("list.status"), t("list.method")];
  const linkTitleOf = (actionId: string) => {
    const linkId = paymentLinkIdOfActionId(actionId);
    return linkId ? linkTitles?.get(linkId) : undefined;
  };
  return (
    <ScrollRegion label={label}>
      <table className={`w-full text-sm ${withPhoneAndActionId ? "min-w-[44rem]" : "min-w-[32rem]"}`}>
        <TableHead columns={withPhoneAndActionId ? [...columns, t("list.phone"), t("list.actionId")] : columns} />
        <tbody>
          {rows.map((row) => {
            const linkTitle = linkTitleOf(row.actionId);
            return (
              <tr key={row.id} className="border-b border-slate-100">
                <td className="py-2" data-label={t("list.created")}>
                  <a className="font-semibold text-teal-800 underline" href={consolePath.payment(locale, row.id)}>
                    {dateTime.format(row.createdAt)}
                  </a>
                </td>
                <td className="py-2 whitespace-nowrap" data-label={t("list.amount")}>
                  {formatMinorAmount({ minor: row.amountMinor, currency: row.currency, locale })}
                  {/* A reservation captured in part: the money that moved, under what was asked. */}
                  {row.capturedMinor > 0 && row.capturedMinor !== row.amountMinor ? (
                    <span className="block text-xs text-slate-600">
                      {t("list.captured", {
                        amount: formatMinorAmount({ minor: row.capturedMinor, currency: row.currency, locale }),
                      })}
                    </span>
                  ) : null}
                </td>
                <td className="py-2" data-label={t("list.status")}>
                  {status(row.state)}
                </td>
                <td className="py-2" data-label={t("list.method")}>
                  {method(row.method)}
                </td>
                {withPhoneAndActionId ? (
                  <>
                    <td className="py-2" data-label={t("list.phone")}>
                      <bdi dir="ltr">{row.customerPhone}</bdi>
                    </td>
                    <td className="py-2 wrap-anywhere" data-label={t("list.actionId")}>
                      {linkTitle === undefined ? (
                        <bdi dir="ltr" className="font-mono text-xs">
                          {row.actionId}
                        </bdi>
                      ) : (
                        <span title={row.actionId}>
                          <IsolatedText
                            text={t("list.ofPaymentLink", { title: linkTitle })}
                            values={[linkTitle]}
                            direction="auto"
                          />
                        </span>
                      )}
                    </td>
                  </>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
