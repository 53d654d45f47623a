import type { CheckoutNextPage, CheckoutProceed } from "../payments/hosted/proceed-from-checkout";
import {
  cardPagePath,
  checkoutPagePath,
  otpPagePath,
  qrPagePath,
  redirectPagePath,
  returnPagePath,
  type HostedLinkOptions,
} from "../urls/hosted-urls";

/** The address of the page the checkout sends the buyer to, the merchant's returnUrl carried along. */
export function checkoutNextPath(page: CheckoutNextPage, link: HostedLinkOptions): string {
  switch (page) {
    case "otp":
      return otpPagePath(link);
    // The card page's return rides on the payment (its redirectUrl, set by the proceed).
    case "card":
      return cardPagePath(link);
    case "redirect":
      return redirectPagePath(link);
    case "qr":
      return qrPagePath(link);
    case "return":
      return returnPagePath(link);
  }
}

/**
 * Where a checkout's Continue (the checkout page's, or the link page's once it created the
 * intent) sends the buyer: the method's page, else the checkout page with what went wrong, or
 * showing where the payment stands (a wrong token: the page says the link is not valid).
 */
export function checkoutOutcomePath(result: CheckoutProceed, link: HostedLinkOptions): string {
  switch (result.outcome) {
    case "proceeded":
      return checkoutNextPath(result.next, link);
    case "no_method_chosen":
      return checkoutPagePath({ ...link, notice: "choose_method" });
    case "method_unavailable":
      return checkoutPagePath({ ...link, notice: "method_unavailable" });
    case "error":
      return checkoutPagePath({ ...link, notice: "error" });
    case "invalid_link":
    case "not_open":
      return checkoutPagePath(link);
  }
}
