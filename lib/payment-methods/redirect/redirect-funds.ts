import type { MethodFunds } from "../../payments/core/method-funds";
import type { RedirectProvider } from "../contract/redirect-provider";
import { redirectOperationRequest, releaseUnfinishedRedirectOrder } from "./redirect-record";

/**
 * A REDIRECT method's funds (lib/payments/core/method-funds.ts), read off its provider once, so a
 * new redirect provider adds no funds of its own. At expiry, what the provider still holds is
 * closed according to what it can do: a provider that takes reservations (ClicToPay, CMI)
 * reverses a RESERVATION's order not finished, so no pre-authorization outlives its payment; one
 * that closes unpaid orders (Chargily, whose API cannot refund) closes every order left unpaid
 * (POST /checkouts/{id}/expire), so a buyer still on its page cannot pay it after. Anything else
 * (SATIM, DIRECT only) lapses at the provider; an order paid after the expiry is reversed by
 * settleRedirectPayment.
 */
export function redirectFunds(provider: RedirectProvider): MethodFunds {
  const closesOrders = provider.reservations !== null || provider.closeUnpaid !== null;
  return {
    provider: provider.provider,
    releaseKind: "release",
    request: redirectOperationRequest,
    expiry: {
      // The buyer pays on the provider's page: the gateway sends no charge.
      chargeOpen: async () => false,
      closeUnfinished: closesOrders
        ? (tx, payment) =>
            releaseUnfinishedRedirectOrder(tx, payment, provider.provider, {
              everyCapture: provider.closeUnpaid !== null,
            })
        : async () => {},
    },
  };
}
