import type { APIResponse, Page, Request } from "@playwright/test";
import { REDIRECT_TRICKS } from "../tests/support/security/redirect-tricks";
import { CARDS, cardPage, enterCard, startCardPayment } from "./support/cards";
import { BASE_URL, SANDBOX_OTP } from "./support/env";
import { expect, freezeTime, hydrated, submitCode, test } from "./support/fixtures";
import { checkPayment, merchant, merchantSite, startWalletPayment, withReturnUrl } from "./support/gateway";
import { openWalletApp, qrPage, startQrPayment, walletApp } from "./support/qr";

/**
 * Issue 7, security suite items 5 and 6, against the production build: the rendered return
 * page never offers or follows a link off the merchant's allowed origins, whatever returnUrl
 * or redirectUrl tried; every hosted page refuses to be framed; and the hosted forms
 * beyond the OTP form (e2e/security.spec.ts) refuse a cross-site POST.
 */

/** The tricks, aimed at the e2e merchant's site instead of https://shop.example. */
function tricksFor(site: string): string[] {
  const host = new URL(site).host;
  return REDIRECT_TRICKS.map((trick) =>
    trick.replaceAll("https://shop.example", site).replaceAll("shop.example", host),
  );
}

const decodeEntities = (value: string) =>
  value
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'");

/** Every link target of an HTML page, resolved against the gateway. */
function linksOf(html: string): string[] {
  return [...html.matchAll(/<a\b[^>]*\bhref="([^"]*)"/gi)].map((match) => decodeEntities(match[1]!));
}

/** What is wrong with a page's links: anything leaving the gateway for an origin other than `allowed`. */
function offSiteLinks(html: string, allowed: string): string[] {
  const gateway = new URL(BASE_URL).origin;
  return linksOf(html).filter((href) => {
    if (/^\s*(javascript|data|vbscript):/i.test(href)) return true;
    const url = new URL(href, BASE_URL);
    return !(url.origin === gateway || (url.origin === allowed && url.username === "" && url.password === ""));
  });
}

test.describe("no open redirect from the hosted return page (contract 8)", () => {
  test("whatever returnUrl the URL carries, the page links and goes only to the merchant's allowed origin", async ({
    page,
  }) => {
    const shop = merchant("shared");
    const site = merchantSite();
    const { paymentId, payUrl } = await startWalletPayment(shop, { xLocale: "en" });
    await freezeTime(page);
    await page.goto(payUrl);
    await submitCode(page, SANDBOX_OTP);
    await expect(page.getByRole("heading", { level: 1, name: "Payment successful" })).toBeVisible();
    const returnPage = page.url();
    const fallback = `${site}/orders/return?paymentId=${paymentId}&statusCode=2`;

    for (const trick of tricksFor(site)) {
      const response = await page.request.get(withReturnUrl(returnPage, trick));
      expect(response.status(), trick).toBe(200);
      const html = await response.text();
      expect(offSiteLinks(html, site), trick).toEqual([]);
      const continueLinks = linksOf(html).filter((href) => href.startsWith(site));
      expect(continueLinks.length, trick).toBeGreaterThan(0);
      for (const href of continueLinks) {
        // Either the service's redirect URL, or the returnUrl itself when it really is on the allowed origin.
        if (href !== fallback)
          expect(new URL(href).searchParams.get("paymentId"), `${trick} -> ${href}`).toBe(paymentId);
      }
    }

    // And a browser following the page's own move lands on the allowed origin for a hostile one.
    await page.goto(withReturnUrl(returnPage, "//evil.example/steal"));
    await hydrated(page);
    await page.clock.runFor(5_000);
    await page.waitForURL((url) => url.origin === site, { timeout: 6_000 });
  });

  test("a card payment's foreign redirectUrl is ignored: the buyer goes back to the service's redirect URL", async ({
    page,
  }) => {
    const shop = merchant("shared");
    const { paymentId, payUrl } = await startCardPayment(shop, { redirectUrl: "https://evil.example/after-card" });
    await freezeTime(page);
    await page.goto(payUrl);
    await enterCard(page, "en", CARDS.visa);
    await cardPage(page).pay.click();
    await expect(page.getByRole("heading", { level: 1, name: "Payment successful" })).toBeVisible();
    const html = await (await page.request.get(page.url())).text();
    expect(offSiteLinks(html, merchantSite())).toEqual([]);
    expect(linksOf(html)).toContain(`${merchantSite()}/orders/return?paymentId=${paymentId}&statusCode=2`);
  });
});

const FRAME_HEADERS = (response: APIResponse) => {
  const headers = response.headers();
  return {
    xFrameOptions: headers["x-frame-options"],
    frameAncestors: /frame-ancestors 'none'/.test(headers["content-security-policy"] ?? ""),
    noStore: (headers["cache-control"] ?? "").includes("no-store"),
  };
};

test.describe("every hosted page refuses to be framed", () => {
  test("OTP, card, QR, wallet app, return and not-found pages all forbid framing and caching", async ({
    page,
    browserProblems,
  }) => {
    const shop = merchant("shared");
    const wallet = await startWalletPayment(shop, { xLocale: "en" });
    const card = await startCardPayment(shop);
    const qr = await startQrPayment(shop);
    await page.goto(qr.qrPageUrl);
    const walletAppHref = await qrPage(page).walletAppLink.getAttribute("href");
    const urls = [
      wallet.payUrl,
      wallet.payUrl.replace("/pay/otp/", "/pay/return/"),
      card.payUrl,
      qr.qrPageUrl,
      new URL(walletAppHref!, BASE_URL).toString(),
      `${BASE_URL}/en/pay/otp/${wallet.paymentId}?token=wrong`,
      `${BASE_URL}/en/no-such-page`,
    ];
    for (const url of urls) {
      const response = await page.request.get(url, {
        headers: { "sec-fetch-dest": "iframe", "sec-fetch-site": "cross-site" },
      });
      expect(FRAME_HEADERS(response), url).toEqual({ xFrameOptions: "DENY", frameAncestors: true, noStore: true });
    }
    expect(browserProblems).toEqual([]);
  });
});

/**
 * Records the form POST a click sends without letting it reach the gateway, so it can be
 * replayed as another site would send it.
 */
async function interceptAction(page: Page, click: () => Promise<void>): Promise<Request> {
  let captured: Request | undefined;
  await page.route("**/*", async (route) => {
    if (route.request().method() === "POST" && route.request().isNavigationRequest()) {
      captured = route.request();
      await route.abort();
      return;
    }
    await route.continue();
  });
  await click();
  await expect.poll(() => captured !== undefined).toBe(true);
  await page.unroute("**/*");
  return captured!;
}

/**
 * The request the test aborted on purpose makes Next.js show its built-in error screen, whose
 * inline styles the strict CSP blocks: expected here, and only that is forgiven.
 */
function forgetAbortedActionTrouble(problems: string[]) {
  const expected = new RegExp(
    [
      /net::ERR_FAILED/,
      /Failed to fetch/,
      /Applying inline style violates the following Content Security Policy directive 'style-src/,
    ]
      .map((part) => part.source)
      .join("|"),
    "i",
  );
  problems.splice(0, problems.length, ...problems.filter((problem) => !expected.test(problem)));
}

async function replay(page: Page, request: Request, extra: Record<string, string>) {
  const headers = { ...(await request.allHeaders()), ...extra };
  delete headers["content-length"];
  return page.request.fetch(request.url(), { method: "POST", headers, data: request.postDataBuffer() ?? undefined });
}

test.describe("cross-site POSTs to hosted pages' forms", () => {
  test("the sandbox wallet app's answer cannot be posted from another site", async ({ page, browserProblems }) => {
    const shop = merchant("shared");
    const { paymentId, qrPageUrl } = await startQrPayment(shop);
    await page.goto(qrPageUrl);
    const phone = await openWalletApp(page, browserProblems);
    const approve = await interceptAction(phone, () => walletApp(phone).approve.click());

    const forged = await replay(phone, approve, { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(forged.status()).toBeGreaterThanOrEqual(400);
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(1);

    // The same request from the page itself goes through: Sec-Fetch-Site made the difference.
    const genuine = await replay(phone, approve, {});
    expect(genuine.status()).toBeLessThan(400);
    await expect.poll(async () => (await checkPayment(shop, paymentId)).statusCode).toBe(2);
    forgetAbortedActionTrouble(browserProblems);
  });

  test("the card provider's 3DS challenge cannot be completed from another site", async ({ page, browserProblems }) => {
    const shop = merchant("shared");
    const { paymentId, payUrl } = await startCardPayment(shop);
    await page.goto(payUrl);
    await enterCard(page, "en", CARDS.threeDSecure);
    await cardPage(page).pay.click();
    const complete = page.getByRole("button", { name: "Complete" });
    await expect(complete).toBeVisible();
    const answer = await interceptAction(page, () => complete.click());

    const forged = await replay(page, answer, { origin: "https://evil.example", "sec-fetch-site": "cross-site" });
    expect(forged.status()).toBeGreaterThanOrEqual(400);
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(12);

    // From the page's own origin the same answer completes the challenge; the provider's event settles the payment.
    const genuine = await replay(page, answer, {});
    expect(genuine.status()).toBeLessThan(400);
    await expect.poll(async () => (await checkPayment(shop, paymentId)).statusCode, { timeout: 15_000 }).toBe(2);
    forgetAbortedActionTrouble(browserProblems);
  });
});
