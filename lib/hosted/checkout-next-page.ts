import type { CheckoutNextPage } from "../payments/hosted/proceed-from-checkout";
import { cardPagePath, otpPagePath, qrPagePath, returnPagePath, type HostedLinkOptions } from "../urls/hosted-urls";

/** The address of the page the checkout sends the buyer to, the merchant's returnUrl carried along. */
export function checkoutNextPath(page: CheckoutNextPage, link: HostedLinkOptions): string {
  switch (page) {
    case "otp":
      return otpPagePath(link);
    // The card page's return rides on the payment (its redirectUrl, set by the proceed).
    case "card":
      return cardPagePath(link);
    case "qr":
      return qrPagePath(link);
    case "return":
      return returnPagePath(link);
  }
}
