import { randomInt, randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, test } from "./support/fixtures";
import { BASE_URL } from "./support/env";
import { merchant, merchantSite } from "./support/gateway";

/*
 * merchant_auth as a merchant's checkout page uses it: a script on the merchant's own origin
 * calls the gateway (another origin) with the publishable key and the intent's client secret.
 * Chromium enforces CORS for real here: the preflight, then reading the answer.
 */

async function createIntentForPage(): Promise<{ paymentId: string; clientSecret: string }> {
  const shop = merchant("shared");
  const response = await fetch(`${BASE_URL}/api/v1/payments/intents?countryCode=DZA`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${Buffer.from(`${shop.clientId}:${shop.clientSecret}`).toString("base64")}`,
      "content-type": "application/json",
      "x-platform": "API",
    },
    body: JSON.stringify({
      actionId: `e2e-page-${randomUUID()}`,
      amount: 310.5,
      actionCurrencyCode: "DZD",
      actionCountryCode: "DZA",
      userId: `+213${randomInt(500_000_000, 799_999_999)}`,
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { data: { paymentId: string; clientSecret: string } }).data;
}

/** What the page's script gets back from the gateway: status, envelope, and the headers it may read. */
function callFromPage(page: Page, path: string, init: { method?: string; body?: unknown; clientSecret: string }) {
  return page.evaluate(
    async ({ url, method, body, publishableKey, clientSecret }) => {
      const response = await fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${publishableKey}`,
          "x-client-secret": clientSecret,
          "x-platform": "WEB",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return {
        status: response.status,
        body: await response.json(),
        requestId: response.headers.get("x-request-id"),
        limit: response.headers.get("ratelimit"),
      };
    },
    {
      url: `${BASE_URL}${path}`,
      method: init.method ?? "GET",
      body: init.body,
      publishableKey: merchant("shared").publishableKey,
      clientSecret: init.clientSecret,
    },
  );
}

test("a checkout page on the merchant's origin proceeds and checks its intent with merchant_auth", async ({ page }) => {
  const intent = await createIntentForPage();
  await page.goto(`${merchantSite()}/checkout`);

  const proceeded = await callFromPage(page, `/api/v1/payments/intents/${intent.paymentId}/proceed`, {
    method: "POST",
    body: { paymentMethodCode: "WALLET_V2" },
    clientSecret: intent.clientSecret,
  });
  expect(proceeded.status).toBe(200);
  expect(proceeded.body.data).toMatchObject({ statusCode: 12, require3DS: true });
  expect(proceeded.body.data.metadata.payUrl).toContain(intent.paymentId);
  expect(proceeded.requestId).toBeTruthy();

  const checked = await callFromPage(page, `/api/v1/payments/intents/${intent.paymentId}/check`, {
    clientSecret: intent.clientSecret,
  });
  expect(checked.status).toBe(200);
  expect(checked.body.data).toMatchObject({ statusCode: 12, amount: 310.5, currencyCode: "DZD" });
  expect(checked.limit).toMatch(/^"secret";r=\d+;t=\d+$/);
});

test("a page on an origin off the service's allow-list reads the refusal: 403 origin_not_allowed", async ({ page }) => {
  const intent = await createIntentForPage();
  // The same site under another name is another origin, and not on the allow-list.
  const elsewhere = merchantSite().replace("127.0.0.1", "localhost");
  expect(elsewhere).not.toBe(merchantSite());
  await page.goto(`${elsewhere}/checkout`);
  const refused = await callFromPage(page, `/api/v1/payments/intents/${intent.paymentId}/check`, {
    clientSecret: intent.clientSecret,
  });
  expect(refused.status).toBe(403);
  expect(refused.body.error.name).toBe("origin_not_allowed");
});

test("a page cannot use the merchant server's client_auth: the browser refuses the call after the preflight", async ({
  page,
}) => {
  await page.goto(`${merchantSite()}/checkout`);
  const shop = merchant("shared");
  const outcome = await page.evaluate(
    async ({ url, authorization }) => {
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { authorization, "content-type": "application/json", "x-platform": "WEB" },
          body: JSON.stringify({
            actionId: crypto.randomUUID(),
            amount: 10,
            actionCurrencyCode: "DZD",
            actionCountryCode: "DZA",
            userId: "+213555010101",
          }),
        });
        return `answered ${response.status}`;
      } catch (error) {
        return `refused: ${(error as Error).name}`;
      }
    },
    {
      url: `${BASE_URL}/api/v1/payments/intents?countryCode=DZA`,
      authorization: `Bearer ${Buffer.from(`${shop.clientId}:${shop.clientSecret}`).toString("base64")}`,
    },
  );
  expect(outcome).toBe("refused: TypeError");
});
