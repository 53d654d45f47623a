import type { PaymentMethodView } from "@/lib/console/payments/payment-list-row";
import { numberLocale } from "@/lib/i18n/locales";
import type { Locale } from "@/lib/i18n/routing";
import { translator } from "@/lib/i18n/translator";

// One per language and zone, built once: a DateTimeFormat loads its locale data when made.
const dateTimes = new Map<string, Intl.DateTimeFormat>();

/**
 * The console's date and time (contract 13): in the merchant's time zone (`Membership.timeZone`),
 * the zone named by its offset as the language writes it ("GMT+1", "UTC+1", "غرينتش+1"), in the
 * user's language; Western digits in Arabic, as the console's amounts (lib/i18n/locales.ts).
 * Every time a console page shows goes through here.
 */
export function consoleDateTime(locale: Locale, timeZone: string): Intl.DateTimeFormat {
  const key = `${locale} ${timeZone}`;
  let format = dateTimes.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(numberLocale(locale), { dateStyle: "medium", timeStyle: "long", timeZone });
    // A few zones at most (one per merchant shown); the bound only guards the map.
    if (dateTimes.size < 1_000) dateTimes.set(key, format);
  }
  return format;
}

/** The words of a payment's status, method and amount-free labels, in the user's language. */
export function paymentLabels(locale: Locale) {
  const t = translator(locale, "consolePayments");
  return {
    t,
    status: (state: string) => t(`status.${state}`),
    method: (method: PaymentMethodView) =>
      method === null
        ? "—"
        : method.kind === "card"
          ? t("method.card", { brand: method.brand ?? "—", last4: method.last4 ?? "····" })
          : t(`method.${method.kind}`),
  };
}

/**
 * The words key (under console.developers.status) of an event's delivery: an event settled
 * as failed without a single attempt had no webhook URL to go to, which is what it says.
 */
export function deliveryStatusKey(delivery: { status: string; attempts: number }): string {
  return delivery.status === "failed" && delivery.attempts === 0 ? "status.noWebhookUrl" : `status.${delivery.status}`;
}
