import { getTranslations } from "next-intl/server";
import type { PaymentMethodView } from "@/lib/console-payments/payment-list-row";
import type { Locale } from "@/lib/i18n/routing";

/** The words of a payment's status, method and amount-free labels, in the user's language. */
export async function paymentLabels(locale: Locale) {
  const t = await getTranslations({ locale, namespace: "consolePayments" });
  return {
    t,
    status: (state: string) => t(`status.${state}`),
    method: (method: PaymentMethodView) =>
      method === null ? "—" : method.kind === "card" ? t("method.card", { brand: method.brand ?? "—", last4: method.last4 ?? "····" }) : t(`method.${method.kind}`),
    dateTime: new Intl.DateTimeFormat(locale, { dateStyle: "short", timeStyle: "medium", timeZone: "UTC" }),
  };
}
