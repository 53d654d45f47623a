import { translator } from "@/lib/i18n/translator";
import { formatAmount } from "@/lib/i18n/format-amount";
import type { Locale } from "@/lib/i18n/routing";

export interface AmountDisplayProps {
  locale: Locale;
  merchantName: string;
  amount: number;
  currency: string;
  /** The amount's label when the page says more than "Amount" (the page before a provider's: "Amount to pay"). */
  amountLabel?: string;
}

/** Who is paid and how much: the first thing a buyer checks on every hosted page. */
export function AmountDisplay({ locale, merchantName, amount, currency, amountLabel }: AmountDisplayProps) {
  const t = translator(locale, "common");
  return (
    <dl className="grid gap-4 rounded-xl bg-slate-50 px-4 py-4 ring-1 ring-slate-200">
      <div className="flex flex-col gap-0.5">
        <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{t("merchant")}</dt>
        <dd className="text-base font-semibold break-words text-slate-900">{merchantName}</dd>
      </div>
      <div className="flex flex-col gap-0.5">
        <dt className="text-xs font-medium tracking-wide text-slate-600 uppercase">{amountLabel ?? t("amount")}</dt>
        {/* An amount is read as one unit, digits left to right even in Arabic. */}
        <dd className="text-3xl font-bold tracking-tight text-slate-900 tabular-nums">
          <bdi>{formatAmount({ amount, currency, locale })}</bdi>
        </dd>
      </div>
    </dl>
  );
}
