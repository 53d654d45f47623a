import type { HostedLaneOptions } from "@/lib/hosted/hosted-lane";
import { LinkNotValid, linkNotValidTitle } from "@/components/link-not-valid";
import { ServiceUnavailable } from "@/components/service-unavailable";
import { translator } from "@/lib/i18n/translator";
import { challengePage } from "./card-provider-sandbox/challenge/[intentId]/challenge-page";
import { paymentLinkPage } from "./l/[id]/payment-link-page";
import { cardPage } from "./pay/card/[paymentId]/card-page";
import { checkoutPage } from "./pay/checkout/[paymentId]/checkout-page";
import { otpPage } from "./pay/otp/[paymentId]/otp-page";
import { qrPage } from "./pay/qr/[paymentId]/qr-page";
import { redirectPage } from "./pay/redirect/[paymentId]/redirect-page";
import { returnPage } from "./pay/return/[paymentId]/return-page";
import { walletAppPage } from "./sandbox/wallet/[paymentId]/wallet-app-page";

/**
 * The hosted buyer pages the hosted lane (lib/hosted/hosted-lane.ts) serves, by the path between
 * the language and their one dynamic segment, and its not-found and unavailable pages. Handed to
 * the lane by the lanes' bundle entry (server/build-lanes.mjs). Beside each page's folder stay
 * its form posts' route handlers (continue, confirm, go, return...), which Next.js serves.
 */
export const HOSTED_LANE: Omit<HostedLaneOptions, "stylesheet"> = {
  pages: {
    "pay/checkout": { param: "paymentId", page: checkoutPage },
    "pay/card": { param: "paymentId", page: cardPage },
    "pay/otp": { param: "paymentId", page: otpPage },
    "pay/qr": { param: "paymentId", page: qrPage },
    "pay/redirect": { param: "paymentId", page: redirectPage },
    "pay/return": { param: "paymentId", page: returnPage },
    l: { param: "id", page: paymentLinkPage },
    "sandbox/wallet": { param: "paymentId", page: walletAppPage },
    "card-provider-sandbox/challenge": { param: "intentId", page: challengePage },
  },
  notFound: (locale, pageUrl) => ({
    head: { title: linkNotValidTitle(locale) },
    element: <LinkNotValid locale={locale} pageUrl={pageUrl} />,
  }),
  unavailable: (locale, retryHref) => ({
    head: { title: translator(locale, "unavailable")("title") },
    element: <ServiceUnavailable locale={locale} retryHref={retryHref} />,
  }),
};
