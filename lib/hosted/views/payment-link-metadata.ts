import { cache } from "react";
import { getDb } from "../../db/client";
import { catalogs } from "../../i18n/catalogs";
import { formatAmount } from "../../i18n/format-amount";
import { isLocale } from "../../i18n/locales";
import { routing } from "../../i18n/routing";
import { fromMinorUnits } from "../../money/amount";
import { getLinkPage } from "../../payment-links/get-link-page";
import { paymentLinkUrl } from "../../urls/payment-link-urls";

/** What a chat app's preview of a link shows: its title, and the amount and merchant in the link's own language. */
export interface PaymentLinkPreview {
  title: string;
  description: string;
  url: string;
  /** `fr_FR`-style, for og:locale. */
  ogLocale: string;
}

const OG_LOCALES = { en: "en_US", fr: "fr_FR", ar: "ar_DZ" } as const;

/** The link page's Open Graph tags (contract 14), read once per request; null for no such link. */
export const getPaymentLinkPreview = cache(async (linkId: string): Promise<PaymentLinkPreview | null> => {
  const page = await getLinkPage(await getDb(), linkId);
  if (!page) return null;
  const { link } = page;
  const locale = isLocale(link.locale) ? link.locale : routing.defaultLocale;
  const text = (catalogs[locale] as { paymentLink: { ogFixed: string; ogOpen: string } }).paymentLink;
  const description =
    link.amountMinor === null
      ? text.ogOpen.replace("{merchant}", () => page.merchantName)
      : text.ogFixed
          .replace("{amount}", () =>
            formatAmount({ amount: fromMinorUnits(link.amountMinor!, link.currency), currency: link.currency, locale }),
          )
          // A function, not a string: a name holding "$&" or "$'" is not a replacement pattern.
          .replace("{merchant}", () => page.merchantName);
  return { title: link.title, description, url: paymentLinkUrl(link.id), ogLocale: OG_LOCALES[locale] };
});
