import { translator } from "@/lib/i18n/translator";
import type { Locale } from "@/lib/i18n/routing";

const PHONE_MARK = "\u2063phone\u2063";

/**
 * SATIM's part of the return page (contract 15, its certification checklist): its logo, its
 * support message and its toll-free number, whatever the outcome. The number is a phone number:
 * Western digits, isolated left to right so an Arabic sentence never reorders it.
 */
export function ProviderSupport({ locale, support }: { locale: Locale; support: { logoPath: string; phone: string } }) {
  const t = translator(locale, "providerSupport");
  // The sentence is translated whole; the number goes where the translation puts {phone}, as a link of its own.
  const [before, after = ""] = t("satim", { phone: PHONE_MARK }).split(PHONE_MARK);
  return (
    <section
      aria-labelledby="provider-support-heading"
      className="flex items-start gap-3 rounded-xl bg-sky-50 px-4 py-3 ring-1 ring-sky-200"
    >
      <img
        src={support.logoPath}
        alt={t("logoAlt")}
        width={72}
        height={30}
        className="mt-0.5 h-7 w-auto shrink-0 rounded bg-white"
      />
      <div className="flex flex-col gap-1">
        <h2 id="provider-support-heading" className="text-sm font-semibold text-slate-900">
          {t("heading")}
        </h2>
        <p className="text-sm text-slate-800">
          {before}
          <a href={`tel:${support.phone}`} className="font-semibold text-sky-900 underline underline-offset-4">
            <bdi dir="ltr">{support.phone}</bdi>
          </a>
          {after}
        </p>
      </div>
    </section>
  );
}
