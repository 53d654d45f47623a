import { afterEach, describe, expect, it } from "vitest";
import { cardProvider, installCardProvider } from "@/lib/providers/card-provider";
import type { CardProvider } from "@/lib/providers/card/port";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import { paymentRow } from "../support/payments";
import { TEST_CARDS, cardPaymentOf, completeOnPage, confirmAtProvider, proceedWithCard } from "../support/cards";

const { api } = useTestGateway();

afterEach(() => installCardProvider(null));

/** The gateway's own card adapter, except that reading a payment method cannot reach the provider. */
function methodReadsFailing(): CardProvider {
  installCardProvider(null);
  const adapter = cardProvider();
  return {
    ...adapter,
    retrievePaymentMethod: async () => {
      throw new Error("connect ECONNRESET");
    },
  };
}

describe("card finalize and the console's brand and last 4", () => {
  it("settles a charged card payment (not saved) even when its payment method cannot be read", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.visa });
    installCardProvider(methodReadsFailing());

    expect(await completeOnPage(proceeded, confirmed.paymentIntentId)).toEqual({ state: "SUCCEEDED", statusCode: 2 });
    expect((await paymentRow(proceeded.paymentId)).state).toBe("SUCCEEDED");
    // Only the console's display is missing.
    expect(await cardPaymentOf(proceeded.paymentId)).toMatchObject({ cardBrand: null, cardLast4: null });
  });
});
