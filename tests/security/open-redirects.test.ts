import { describe, expect, it } from "vitest";
import { GET as completeCardPage } from "@/app/[locale]/pay/card/[paymentId]/complete/route";
import { getDb } from "@/lib/db/client";
import { getCardPage } from "@/lib/hosted/views/card-page-view";
import { proceedWithCard, TEST_CVC, futureExpiry } from "../support/cards";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import { createIntent, paymentRow, proceed, serverHeaders } from "../support/payments";
import { describe as show, envelopeProblems } from "../support/security/envelope";
import { REDIRECT_TRICKS } from "../support/security/redirect-tricks";

/**
 * Issue 7, security suite item 5 (the parts observable without a browser; the rendered
 * return page is checked by e2e/security-redirects.spec.ts): a redirectUrl given at card
 * proceed, the card provider's return_url and the card page's return step never send the
 * buyer to an origin the merchant did not configure (contract 8).
 */

const { api } = useTestGateway();

const ALLOWED = "https://shop.example";

describe("card proceed redirectUrl (contract 8)", () => {
  it("keeps an allow-listed redirectUrl, and never stores one that leaves the allowed origins", async () => {
    const merchant = await createMerchant({ redirectUrl: `${ALLOWED}/return`, origins: [ALLOWED] });
    const control = await createIntent(api, merchant);
    const kept = await proceed(api, control.paymentId, serverHeaders(merchant), {
      paymentMethodCode: "CARD_PROVIDER",
      redirectUrl: `${ALLOWED}/after-card?order=7`,
    });
    expect(kept.status, show(kept)).toBe(200);
    expect((await paymentRow(control.paymentId)).redirectUrl).toBe(`${ALLOWED}/after-card?order=7`);

    const failures: string[] = [];
    for (const redirectUrl of REDIRECT_TRICKS) {
      const intent = await createIntent(api, merchant);
      const response = await proceed(api, intent.paymentId, serverHeaders(merchant), {
        paymentMethodCode: "CARD_PROVIDER",
        redirectUrl,
      });
      if (envelopeProblems(response).length > 0) {
        failures.push(`${redirectUrl}: ${show(response)}`);
        continue;
      }
      if (response.status === 400) {
        if (response.body.error.details?.[0]?.path !== "redirectUrl")
          failures.push(`${redirectUrl}: refused for another reason ${show(response)}`);
        continue;
      }
      if (response.status !== 200) {
        failures.push(`${redirectUrl}: ${show(response)}`);
        continue;
      }
      const stored = (await paymentRow(intent.paymentId)).redirectUrl;
      // Kept only if a browser would go to the allowed origin with it, credentials-free.
      if (stored !== null && (new URL(stored).origin !== ALLOWED || new URL(stored).username !== "")) {
        failures.push(`${redirectUrl}: stored ${stored}`);
      }
    }
    expect(failures).toEqual([]);
  });
});

describe("the card provider's return_url and the card page's return step", () => {
  it("the sandbox provider refuses a return_url outside the gateway's own origin", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const page = await getCardPage(await getDb(), { paymentId: proceeded.paymentId, token: proceeded.token });
    const { confirmation } = page!;
    const own = process.env.PUBLIC_BASE_URL!;
    for (const returnUrl of [...REDIRECT_TRICKS, `${own}@evil.example/`, `${own}.evil.example/`]) {
      const response = await api.post(
        confirmation!.confirmUrl,
        {
          client_secret: confirmation!.clientSecret,
          payment_method_data: { card: { number: "4242 4242 4242 4242", cvc: TEST_CVC, ...futureExpiry() } },
          return_url: returnUrl,
        },
        { authorization: `Bearer ${confirmation!.publishableKey}` },
      );
      expect(response.status, `${returnUrl}: ${JSON.stringify(response.body)}`).toBe(400);
      expect(response.body.error.code, returnUrl).toBe("url_invalid");
    }
    // Nothing was confirmed by any of them.
    expect((await paymentRow(proceeded.paymentId)).state).toBe("REQUIRES_ACTION");
  });

  it("the card page's return step only ever redirects within the gateway, whatever its query carries", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const base = `http://gateway.test/en/pay/card/${proceeded.paymentId}/complete`;
    for (const extra of REDIRECT_TRICKS.map(
      (trick) => `&returnUrl=${encodeURIComponent(trick)}&redirectUrl=${encodeURIComponent(trick)}`,
    )) {
      for (const token of [proceeded.token, "wrong"]) {
        const response = await completeCardPage(new Request(`${base}?token=${token}&payment_intent=pi_x${extra}`), {
          params: Promise.resolve({ locale: "en", paymentId: proceeded.paymentId }),
        });
        expect(response.status).toBe(303);
        const location = response.headers.get("location")!;
        expect(location, extra).toMatch(new RegExp(`^/en/pay/(card|return)/${proceeded.paymentId}\\?token=`));
        expect(location).not.toContain("evil");
      }
    }
  });
});
