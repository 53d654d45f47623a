import { ScrollRegion, TableHead } from "@/components/console/console-form";
import { consoleDateTime, paymentLabels } from "@/components/console/payment-labels";
import { consolePath } from "@/lib/console/console-paths";
import type { PaymentListRow } from "@/lib/console-payments/payment-list-row";
import { formatMinorAmount } from "@/lib/i18n/format-amount";
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
}: {
  locale: Locale;
  /** The merchant's (Membership.timeZone). */
  timeZone: string;
  label: string;
  rows: readonly PaymentListRow[];
  withPhoneAndActionId: boolean;
}) {
  const { t, status, method } = paymentLabels(locale);
  const dateTime = consoleDateTime(locale, timeZone);
  const columns = [t("list.created"), t("list.amount"), t("list.status"), t("list.method")];
  return (
    <ScrollRegion label={label}>
      <table className={`w-full text-sm ${withPhoneAndActionId ? "min-w-[44rem]" : "min-w-[32rem]"}`}>
        <TableHead columns={withPhoneAndActionId ? [...columns, t("list.phone"), t("list.actionId")] : columns} />
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className="border-b border-slate-100">
              <td className="py-2">
                <a className="font-semibold text-teal-800 underline" href={consolePath.payment(locale, row.id)}>
                  {dateTime.format(row.createdAt)}
                </a>
              </td>
              <td className="py-2 whitespace-nowrap">
                {formatMinorAmount({ minor: row.amountMinor, currency: row.currency, locale })}
                {/* A reservation captured in part: the money that moved, under what was asked. */}
                {row.capturedMinor > 0 && row.capturedMinor !== row.amountMinor ? (
                  <span className="block text-xs text-slate-600">{t("list.captured", { amount: formatMinorAmount({ minor: row.capturedMinor, currency: row.currency, locale }) })}</span>
                ) : null}
              </td>
              <td className="py-2">{status(row.state)}</td>
              <td className="py-2">{method(row.method)}</td>
              {withPhoneAndActionId ? (
                <>
                  <td className="py-2" dir="ltr">
                    {row.customerPhone}
                  </td>
                  <td className="py-2 font-mono text-xs wrap-anywhere" dir="ltr">
                    {row.actionId}
                  </td>
                </>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}
