import type { PaymentMethodView } from "@/lib/console-payments/payment-list-row";
import type { Locale } from "@/lib/i18n/routing";
import { translator } from "@/lib/i18n/translator";

// One per language, built once: a DateTimeFormat loads its locale data when made.
const dateTimes = new Map<Locale, Intl.DateTimeFormat>();

/** The console's date and time (UTC), in the user's language. */
export function consoleDateTime(locale: Locale): Intl.DateTimeFormat {
  let format = dateTimes.get(locale);
  if (!format) dateTimes.set(locale, (format = new Intl.DateTimeFormat(locale, { dateStyle: "short", timeStyle: "medium", timeZone: "UTC" })));
  return format;
}

/** The words of a payment's status, method and amount-free labels, in the user's language. */
export function paymentLabels(locale: Locale) {
  const t = translator(locale, "consolePayments");
  return {
    t,
    status: (state: string) => t(`status.${state}`),
    method: (method: PaymentMethodView) =>
      method === null ? "—" : method.kind === "card" ? t("method.card", { brand: method.brand ?? "—", last4: method.last4 ?? "····" }) : t(`method.${method.kind}`),
    dateTime: consoleDateTime(locale),
  };
}

/**
 * The words key (under console.developers.status) of an event's delivery: an event settled
 * as failed without a single attempt had no webhook URL to go to, which is what it says.
 */
export function deliveryStatusKey(delivery: { status: string; attempts: number }): string {
  return delivery.status === "failed" && delivery.attempts === 0 ? "status.noWebhookUrl" : `status.${delivery.status}`;
}
