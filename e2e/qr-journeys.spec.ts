import { expect, test } from "./support/fixtures";
import { advanceClock, checkPayment, merchant, merchantSite, withReturnUrl } from "./support/gateway";
import { onboardMerchant } from "./support/onboard";
import { answerQrPayment, openWalletApp, qrPage, startQrPayment, walletApp } from "./support/qr";

test.describe("QR wallet journeys (issue 6, contract 9 and 10)", () => {
  test("the QR page reaches success by itself after the wallet app approves in a second page, then moves on", async ({
    page,
    browserProblems,
  }) => {
    const shop = merchant("shared");
    const { paymentId, qrPageUrl } = await startQrPayment(shop, { amount: 1250.75 });
    await page.goto(withReturnUrl(qrPageUrl, `${merchantSite()}/orders/qr-done`));

    await expect(page).toHaveURL(/\/en\/pay\/qr\//);
    await expect(page.getByRole("heading", { level: 1, name: "Scan to pay" })).toBeVisible();
    const qr = qrPage(page);
    await expect(qr.image).toBeVisible();
    // The browser really decoded the PNG the gateway served.
    expect(await qr.image.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(480);
    await expect(page.getByText("Souk Atlas")).toBeVisible();
    await expect(page.getByText("DZD 1,250.75")).toBeVisible();
    await expect(qr.status).toHaveText("Waiting for your confirmation in the wallet app…");

    const phone = await openWalletApp(page, browserProblems);
    const app = walletApp(phone);
    await expect(app.heading("wallet.title")).toBeVisible();
    await expect(phone.getByText("Souk Atlas asks you to pay from your wallet.")).toBeVisible();
    await expect(phone.getByText("DZD 1,250.75")).toBeVisible();
    await expect(phone.getByText("DZD 10,000.00")).toBeVisible();
    await app.approve.click();
    await expect(app.heading("wallet.approvedTitle")).toBeVisible();
    await expect(phone.getByText(/^[2-9A-HJ-NP-Z]{6}$/)).toBeVisible();
    await expect(phone.getByText("DZD 8,749.25")).toBeVisible();

    // Nobody touches the QR page: it notices by itself, says so, and moves to the result.
    await expect(qr.statusSaying("qr.successful")).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole("heading", { level: 1, name: "Payment successful" })).toBeVisible();
    expect(new URL(page.url()).pathname).toBe(`/en/pay/return/${paymentId}`);
    await page.waitForURL(`${merchantSite()}/orders/qr-done?paymentId=${paymentId}&statusCode=2`, { timeout: 6_000 });
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(2);
  });

  test("a decline in the wallet app ends the QR page as failed (3)", async ({ page, browserProblems }) => {
    const shop = merchant("shared");
    const { paymentId, qrPageUrl } = await startQrPayment(shop, { amount: 80.5, currency: "MAD", country: "MAR" });
    await page.goto(withReturnUrl(qrPageUrl, `${merchantSite()}/orders/qr-declined`));
    await expect(page.getByText("MAD 80.50")).toBeVisible();

    const phone = await openWalletApp(page, browserProblems);
    await walletApp(phone).decline.click();
    await expect(walletApp(phone).heading("wallet.declinedTitle")).toBeVisible();
    await expect(phone.getByText("You declined this payment. No money was taken.")).toBeVisible();

    await expect(qrPage(page).statusSaying("qr.failed")).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole("heading", { level: 1, name: "Payment failed" })).toBeVisible();
    await page.waitForURL(`${merchantSite()}/orders/qr-declined?paymentId=${paymentId}&statusCode=3`, {
      timeout: 6_000,
    });
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(3);
  });

  test("a RESERVATION approved through the test helper authorizes it (13), and the page follows", async ({ page }) => {
    const shop = merchant("shared");
    const { paymentId, qrPageUrl } = await startQrPayment(shop, { captureMethod: "RESERVATION" });
    await page.goto(withReturnUrl(qrPageUrl, `${merchantSite()}/orders/qr-reserved`));
    await expect(qrPage(page).status).toBeVisible();
    expect((await answerQrPayment(shop, paymentId, "approve")).statusCode).toBe(13);
    await expect(page.getByRole("heading", { level: 1, name: "Payment authorized" })).toBeVisible({ timeout: 10_000 });
    await page.waitForURL(`${merchantSite()}/orders/qr-reserved?paymentId=${paymentId}&statusCode=13`, {
      timeout: 6_000,
    });
  });

  test("a QR payment left past its lifetime ends as failed, saying it expired; the wallet app no longer asks", async ({
    page,
    browserProblems,
  }) => {
    // Its own service: the sandbox clock is per service, and other journeys must not move this one's.
    const shop = await onboardMerchant({
      name: "QR Clock Shop",
      redirectUrl: `${merchantSite()}/orders/return`,
      origins: [merchantSite()],
    });
    const { paymentId, qrPageUrl } = await startQrPayment(shop);
    await page.goto(qrPageUrl);
    await expect(qrPage(page).status).toBeVisible();
    const phone = await openWalletApp(page, browserProblems);
    await expect(walletApp(phone).approve).toBeVisible();

    await advanceClock(shop, 30 * 60 + 31);
    await expect(qrPage(page).statusSaying("qr.expired")).toBeVisible({ timeout: 10_000 });
    await expect(page.getByRole("heading", { level: 1, name: "Payment failed" })).toBeVisible();
    await expect(page.getByText("The time to confirm it ran out, and no money was taken.")).toBeVisible();
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(3);

    await phone.reload();
    await expect(walletApp(phone).heading("wallet.expiredTitle")).toBeVisible();
    await expect(walletApp(phone).approve).toHaveCount(0);
  });

  test("the QR page and the wallet app carry the hosted pages' headers, and a bad token gets the neutral 404", async ({
    page,
    request,
    browserProblems,
  }) => {
    const shop = merchant("shared");
    const { qrPageUrl, qrImageUrl, paymentId } = await startQrPayment(shop, { xLocale: "en_US" });
    await page.goto(qrPageUrl);
    const walletUrl = (await openWalletApp(page, browserProblems)).url();
    for (const url of [qrPageUrl, walletUrl]) {
      const response = await request.get(url);
      expect(response.status(), url).toBe(200);
      const headers = response.headers();
      expect(headers["content-security-policy"]).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
      expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
      expect(headers["referrer-policy"]).toBe("no-referrer");
      expect(headers["cache-control"]).toContain("no-store");
      expect(headers["x-frame-options"]).toBe("DENY");
    }
    const image = await request.get(qrImageUrl);
    expect(image.headers()["content-type"]).toBe("image/png");

    // The QR page's token does not open the wallet app, nor the reverse; neither says why.
    const qrToken = new URL(qrPageUrl).searchParams.get("token")!;
    const walletToken = new URL(walletUrl).searchParams.get("token")!;
    for (const path of [
      `/en/sandbox/wallet/${paymentId}?token=${qrToken}`,
      `/en/pay/qr/${paymentId}?token=${walletToken}`,
      `/en/pay/qr/${paymentId}`,
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.getByRole("heading", { level: 1, name: "This link is not valid" })).toBeVisible();
    }
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(1);
  });

  test("a cross-site POST cannot answer for the customer: the wallet app's form refuses another site", async ({
    page,
    browserProblems,
  }) => {
    const shop = merchant("shared");
    const { paymentId, qrPageUrl } = await startQrPayment(shop, { xLocale: "en" });
    await page.goto(qrPageUrl);
    const phone = await openWalletApp(page, browserProblems);

    // Record what the app posts for "Decline", without letting it reach the server.
    let original: { url: string; headers: Record<string, string>; body: Buffer } | undefined;
    await phone.route("**/sandbox/wallet/**", async (route) => {
      const request = route.request();
      if (request.method() !== "POST") return route.continue();
      original = { url: request.url(), headers: { ...(await request.allHeaders()) }, body: request.postDataBuffer()! };
      await route.abort();
    });
    await walletApp(phone).decline.click();
    await expect.poll(() => original !== undefined).toBe(true);
    // The POST this test aborted breaks that page on purpose: Next reports it as a script error
    // and its default error screen then trips the CSP. Stop watching the phone from here on.
    phone.removeAllListeners("pageerror");
    phone.removeAllListeners("console");
    browserProblems.splice(
      0,
      browserProblems.length,
      ...browserProblems.filter((problem) => !problem.startsWith("wallet app")),
    );
    const { url, headers, body } = original!;
    delete headers["content-length"];
    expect(body.includes("decline")).toBe(true);
    const approve = Buffer.from(body.toString("latin1").replace("decline", "approve"), "latin1");

    const forged = await phone.request.fetch(url, {
      method: "POST",
      headers: { ...headers, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      data: approve,
    });
    expect(forged.status()).toBeGreaterThanOrEqual(400);
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(1);

    // The same request from the app itself goes through: Sec-Fetch-Site made the difference.
    const genuine = await phone.request.fetch(url, { method: "POST", headers, data: approve });
    expect(genuine.status()).toBeLessThan(400);
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(2);
  });
});
