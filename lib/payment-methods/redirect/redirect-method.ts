import type { PaymentMethodCode } from "../codes/payment-method-codes";
import type { PaymentMethodModule } from "../contract/payment-method-module";
import type { RedirectProvider } from "../contract/redirect-provider";
import { prepareRedirectProceed, proceedWithRedirect } from "./proceed-with-redirect";
import { redirectFunds } from "./redirect-funds";
import { redirectRefundHandler, redirectRegisterHandler, redirectReservationHandlers } from "./redirect-operations";

/**
 * A REDIRECT method (contract 15) from its provider: everything but the provider's own calls is
 * the archetype's, so a new redirect provider is one folder (its RedirectProvider and this
 * line), one registry line and its simulator.
 */
export function redirectMethod(code: PaymentMethodCode, provider: RedirectProvider): PaymentMethodModule<null> {
  return {
    code,
    hostedStep: "redirect",
    showsQrCodeForQrIntents: false,
    userListing: "none",
    prepareProceed: (db, { payment }) => prepareRedirectProceed(db, provider, code, payment),
    proceed: proceedWithRedirect(code, provider),
    // Nothing is asked of the provider before the buyer presses Pay.
    withdrawPrepared: async () => {},
    chargeToRetryOnProceed: async () => null,
    completePendingCharge: async (_db, operation) => {
      throw new Error(`a redirect proceed records no charge to send (operation ${operation.id})`);
    },
    providerOperations: [
      redirectRegisterHandler(provider),
      redirectRefundHandler(provider),
      ...redirectReservationHandlers(provider),
    ],
    funds: redirectFunds(provider),
    redirect: provider,
    // The console names a redirect method's payments by its provider (`?method=satim`).
    console: { kind: provider.provider, showsCard: false },
    endUserMessages: {
      requiresAction: provider.requiresActionMessage,
      preAuthorized: "The amount is authorized on your card.",
    },
  };
}
