import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { getCardPage } from "@/lib/hosted/views/card-page-view";
import { futureExpiry, proceedWithCard, TEST_CARDS, TEST_CVC } from "../support/cards";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import { anyValue, encodeSegment, hostileString, rawBody } from "../support/security/hostile-input";

/**
 * The sandbox card provider's browser API is served by the gateway too (outside /api/v1, in
 * the provider's own error format): hostile input gets its 4xx, never a 500.
 */

const RUNS = Number(process.env.SECURITY_FUZZ_RUNS ?? 40);

const gateway = useTestGateway();
const { api } = gateway;

describe("POST /api/card-provider-sandbox/v1/payment_intents/:id/confirm", () => {
  it("answers generated hostile paths, keys and bodies with a provider error, never a 500", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const { confirmation } = (await getCardPage(await getDb(), {
      paymentId: proceeded.paymentId,
      token: proceeded.token,
    }))!;
    const valid = {
      client_secret: confirmation!.clientSecret,
      payment_method_data: { card: { number: TEST_CARDS.declined, cvc: TEST_CVC, ...futureExpiry() } },
      return_url: `${process.env.PUBLIC_BASE_URL}/en/pay/card/${proceeded.paymentId}/complete`,
    };
    const confirmPath = new URL(confirmation!.confirmUrl, gateway.baseUrl).pathname;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          intent: fc.option(
            hostileString.filter((text) => text !== "" && text.length < 1_000 && text !== "." && text !== ".."),
            { freq: 3 },
          ),
          key: fc.constantFrom(confirmation!.publishableKey, "pk_wrong", ""),
          overrides: fc.array(
            fc.tuple(
              fc.constantFrom(
                "client_secret",
                "payment_method",
                "payment_method_data",
                "return_url",
                "locale",
                "setup_future_usage",
              ),
              anyValue,
            ),
            {
              maxLength: 3,
            },
          ),
          raw: fc.option(rawBody, { freq: 5 }),
        }),
        async ({ intent, key, overrides, raw }) => {
          const path =
            intent === null
              ? confirmPath
              : confirmPath.replace(/payment_intents\/[^/]+/, `payment_intents/${encodeSegment(intent)}`);
          const body = raw ?? JSON.stringify({ ...valid, ...Object.fromEntries(overrides) });
          const response = await api.call("POST", path, {
            rawBody: body,
            headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
          });
          expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
          if (response.status >= 400)
            expect(typeof response.body?.error?.code, JSON.stringify(response.body)).toBe("string");
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
  });

  it("answers hostile Stripe.js form bodies (the stand-in's wire format) with a provider error, no 500", async () => {
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant);
    const { confirmation } = (await getCardPage(await getDb(), {
      paymentId: proceeded.paymentId,
      token: proceeded.token,
    }))!;
    const expiry = futureExpiry();
    const valid: Record<string, string> = {
      key: confirmation!.publishableKey,
      client_secret: confirmation!.clientSecret,
      "payment_method_data[type]": "card",
      "payment_method_data[card][number]": TEST_CARDS.declined,
      "payment_method_data[card][exp_month]": String(expiry.expMonth),
      "payment_method_data[card][exp_year]": String(expiry.expYear),
      "payment_method_data[card][cvc]": TEST_CVC,
      return_url: `${getConfig().publicBaseUrl}/en/pay/card/${proceeded.paymentId}/complete`,
    };
    const confirmPath = new URL(confirmation!.confirmUrl, gateway.baseUrl).pathname;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          overrides: fc.array(
            fc.tuple(
              fc.constantFrom(
                ...Object.keys(valid),
                "payment_method",
                "setup_future_usage",
                "payment_method_data[card][number][0]",
                "key[x]",
              ),
              hostileString,
            ),
            { maxLength: 3 },
          ),
          raw: fc.option(rawBody, { freq: 5 }),
        }),
        async ({ overrides, raw }) => {
          const body = raw ?? new URLSearchParams({ ...valid, ...Object.fromEntries(overrides) }).toString();
          const response = await api.call("POST", confirmPath, {
            rawBody: body,
            headers: { "content-type": "application/x-www-form-urlencoded" },
          });
          expect(response.status, JSON.stringify(response.body)).toBeLessThan(500);
          if (response.status >= 400)
            expect(typeof response.body?.error?.code, JSON.stringify(response.body)).toBe("string");
        },
      ),
      { numRuns: RUNS, endOnFailure: true },
    );
    // The valid form itself, on a payment no hostile body touched: Stripe's answer to a declined
    // card, a 402 carrying the intent.
    const fresh = await proceedWithCard(api, merchant);
    const page = (await getCardPage(await getDb(), { paymentId: fresh.paymentId, token: fresh.token }))!.confirmation!;
    const declined = await api.call("POST", new URL(page.confirmUrl, gateway.baseUrl).pathname, {
      rawBody: new URLSearchParams({
        ...valid,
        key: page.publishableKey,
        client_secret: page.clientSecret,
        return_url: `${getConfig().publicBaseUrl}/en/pay/card/${fresh.paymentId}/complete`,
      }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(declined.status, JSON.stringify(declined.body)).toBe(402);
    expect(declined.body.error).toMatchObject({
      type: "card_error",
      code: "card_declined",
      decline_code: "generic_decline",
    });
    expect(declined.body.error.payment_intent.id).toBe(page.paymentIntentId);
  });
});
