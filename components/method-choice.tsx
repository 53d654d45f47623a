import { translator } from "@/lib/i18n/translator";
import type { Locale } from "@/lib/i18n/routing";
import type { PaymentMethodCode } from "@/lib/payment-methods/codes/payment-method-codes";

/**
 * The radio group "Payment method" of the checkout and payment link pages: one radio per
 * method enabled for the payment's country, in the catalog's order, the first (or the one the
 * buyer chose before) checked. Plain HTML: it works without script.
 */
export function MethodChoice({
  locale,
  methods,
  checked,
  error,
}: {
  locale: Locale;
  methods: PaymentMethodCode[];
  checked?: string;
  error?: string | null;
}) {
  const t = translator(locale, "checkout");
  const selected = methods.includes(checked as PaymentMethodCode) ? checked : methods[0];
  return (
    <fieldset className="flex flex-col gap-3" aria-describedby={error ? "method-error" : undefined}>
      <legend className="mb-1 text-sm font-semibold text-slate-800">{t("methodLegend")}</legend>
      {methods.map((code) => (
        // The radio's name is the method alone ("Wallet", "Card"); its hint describes it.
        <div
          key={code}
          className={
            "relative flex min-h-12 items-start gap-3 rounded-xl border border-slate-300 bg-white px-4 py-3 " +
            "has-[:checked]:border-teal-700 has-[:checked]:ring-2 has-[:checked]:ring-teal-700/30"
          }
        >
          <input
            id={`method-${code}`}
            type="radio"
            name="method"
            value={code}
            defaultChecked={code === selected}
            aria-describedby={`method-${code}-hint`}
            className="relative z-10 mt-1 size-5 shrink-0 accent-teal-700"
          />
          <span className="flex flex-col">
            {/* The label covers the whole box (after:inset-0), so a tap anywhere on it chooses the method. */}
            <label
              htmlFor={`method-${code}`}
              className="cursor-pointer font-semibold text-slate-900 after:absolute after:inset-0"
            >
              {t(`methods.${code}`)}
            </label>
            <span id={`method-${code}-hint`} className="text-sm text-slate-600">
              {t(`methodHints.${code}`)}
            </span>
          </span>
        </div>
      ))}
      {error ? (
        <p id="method-error" role="alert" className="text-sm font-medium text-rose-700">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}
