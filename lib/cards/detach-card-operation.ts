import { getDb } from "../db/client";
import type { ProviderOperationHandler } from "../provider-operations";
import { askCardProvider } from "../providers/card/ask-card-provider";
import { cardProvider } from "../providers/card-provider";
import type { CardAccountRef } from "../providers/card/card-provider-accounts";

/** Forgets a deleted saved card at the provider; the card already left the gateway's lists. */
export const cardDetach: ProviderOperationHandler = {
  provider: "card",
  kind: "detach",
  async call(operation) {
    const id = String(operation.request.providerPaymentMethodId);
    const account = operation.request.account as CardAccountRef;
    await askCardProvider(async () =>
      cardProvider().detachPaymentMethod(await getDb(), { id, idempotencyKey: operation.id, account }),
    );
    return { reference: id };
  },
  async settle() {
    return {};
  },
};
