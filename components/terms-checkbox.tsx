import { translator } from "@/lib/i18n/translator";
import { TERMS_ACCEPTED_VALUE, TERMS_FIELD } from "@/lib/hosted/payment-terms";
import type { Locale } from "@/lib/i18n/routing";

/**
 * "I accept the terms of payment", required, with the merchant's terms one link away (a new tab,
 * so the form keeps what the buyer typed). `refused`: the form came back because the box was not
 * ticked (`termsAccepted` in lib/hosted/payment-terms.ts), said beside it.
 */
export function TermsCheckbox({
  locale,
  termsUrl,
  refused = false,
}: {
  locale: Locale;
  termsUrl: string | null;
  refused?: boolean;
}) {
  const t = translator(locale, "paymentTerms");
  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-start gap-3">
        <input
          id="accept-terms"
          name={TERMS_FIELD}
          value={TERMS_ACCEPTED_VALUE}
          type="checkbox"
          required
          aria-invalid={refused ? true : undefined}
          aria-describedby={refused ? "accept-terms-error" : undefined}
          className={
            "mt-1 size-5 shrink-0 accent-teal-700 focus-visible:outline-3 focus-visible:outline-offset-2 " +
            "focus-visible:outline-teal-600"
          }
        />
        <label htmlFor="accept-terms" className="text-base text-slate-900">
          {t("accept")}
        </label>
      </div>
      {termsUrl ? (
        <a
          href={termsUrl}
          target="_blank"
          rel="noopener noreferrer"
          className="ms-8 text-sm font-medium break-words text-teal-800 underline underline-offset-4"
        >
          {t("read")}
        </a>
      ) : null}
      {refused ? (
        <p id="accept-terms-error" role="alert" className="ms-8 text-sm font-medium text-rose-700">
          {t("required")}
        </p>
      ) : null}
    </div>
  );
}
