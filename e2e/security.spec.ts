import { SANDBOX_OTP } from "./support/env";
import { expect, otpPage, submitCode, test } from "./support/fixtures";
import { checkPayment, merchant, merchantSite, startWalletPayment, withReturnUrl } from "./support/gateway";

const nonceOf = (policy: string | null) => /'nonce-([^']+)'/.exec(policy ?? "")?.[1];

test.describe("hosted page security (issue 4, item 4)", () => {
  test("the OTP page answers with a strict nonce CSP, no framing, no referrer, no caching", async ({
    page,
    request,
  }) => {
    const { payUrl } = await startWalletPayment(merchant("shared"), { xLocale: "en_US" });
    const first = await request.get(payUrl);
    const second = await request.get(payUrl);
    expect(first.status()).toBe(200);

    const headers = first.headers();
    const policy = headers["content-security-policy"]!;
    expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain("unsafe-inline");
    expect(policy).not.toContain("unsafe-eval");
    expect(headers["referrer-policy"]).toBe("no-referrer");
    expect(headers["cache-control"]).toContain("no-store");
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(nonceOf(policy)).not.toBe(nonceOf(second.headers()["content-security-policy"]!));

    // Every script the page ships carries this response's nonce; none is inline without it.
    const html = await first.text();
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonceOf(policy)}"`);
    expect(html).not.toMatch(/\son[a-z]+="/i);

    // And the browser runs the page under it without a single violation (the fixture checks).
    await page.goto(payUrl);
    await expect(otpPage(page).code).toBeVisible();
  });

  test("the return page carries the same protections", async ({ page }) => {
    const { payUrl } = await startWalletPayment(merchant("noRedirect"));
    await page.goto(payUrl);
    await submitCode(page, SANDBOX_OTP);
    await expect(page.getByRole("heading", { level: 1, name: "Payment successful" })).toBeVisible();
    const response = await page.request.get(page.url());
    expect(response.headers()["cache-control"]).toContain("no-store");
    expect(response.headers()["referrer-policy"]).toBe("no-referrer");
    expect(response.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
  });

  test("a bad, missing or borrowed token shows the same neutral page with 404, telling nothing", async ({ page }) => {
    const shop = merchant("shared");
    const [one, other] = await Promise.all([
      startWalletPayment(shop, { xLocale: "en" }),
      startWalletPayment(shop, { xLocale: "en" }),
    ]);
    const tokenOf = (url: string) => new URL(url).searchParams.get("token")!;
    const base = new URL(one.payUrl);
    const attempts = [
      `${base.pathname}?token=${tokenOf(one.payUrl).replace(/.$/, (c) => (c === "0" ? "1" : "0"))}`,
      base.pathname,
      `${base.pathname}?token=${tokenOf(other.payUrl)}`, // another payment's token
      `/en/pay/otp/00000000-0000-4000-8000-000000000000?token=${tokenOf(one.payUrl)}`,
      `/en/pay/return/${one.paymentId}?token=nope`,
      "/en/pay/otp/not-a-uuid?token=x",
      "/en/pay/nothing-here",
    ];
    for (const path of attempts) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      expect(response?.headers()["cache-control"], path).toContain("no-store");
      await expect(page.getByRole("heading", { level: 1, name: "This link is not valid" }), path).toBeVisible();
      await expect(otpPage(page).code).toHaveCount(0);
    }
    // The payment whose token was guessed at is untouched.
    expect((await checkPayment(shop, one.paymentId)).statusCode).toBe(12);
  });

  test("a cross-site POST cannot submit a code: Sec-Fetch-Site refuses it, whatever the Origin", async ({ page }) => {
    const shop = merchant("shared");
    const { paymentId, payUrl } = await startWalletPayment(shop, { xLocale: "en" });
    await page.goto(payUrl);

    // Record what the page really posts, with a wrong code so nothing settles.
    const posted = page.waitForRequest((request) => request.method() === "POST" && request.url().endsWith("/confirm"));
    await submitCode(page, "000000");
    const original = await posted;
    await expect(page.getByRole("alert").filter({ hasText: "4 attempts left" })).toBeVisible();
    const body = original.postDataBuffer()!;
    expect(body.includes("000000")).toBe(true);
    const withRightCode = Buffer.from(body.toString("latin1").replace("000000", SANDBOX_OTP), "latin1");
    const headers = { ...(await original.allHeaders()) };
    delete headers["content-length"];

    // Replayed from another site (what a hidden form or fetch elsewhere would send): refused.
    const forged = await page.request.fetch(original.url(), {
      method: "POST",
      headers: { ...headers, origin: "https://evil.example", "sec-fetch-site": "cross-site" },
      data: withRightCode,
    });
    expect(forged.status()).toBeGreaterThanOrEqual(400);
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(12);

    // The plain form post carries Origin: null (Referrer-Policy: no-referrer), and is accepted all the same.
    expect(headers.origin ?? "null").toBe("null");
    // The same request from the page itself goes through: where it came from made the difference.
    const genuine = await page.request.fetch(original.url(), { method: "POST", headers, data: withRightCode });
    expect(genuine.status()).toBeLessThan(400);
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(2);
  });

  test("the page refuses to be framed by another site", async ({ page, browserProblems }) => {
    const { payUrl } = await startWalletPayment(merchant("shared"), { xLocale: "en" });
    await page.goto(`${merchantSite()}/shop`);
    await page.evaluate((src) => {
      const frame = document.createElement("iframe");
      frame.src = src;
      document.body.append(frame);
    }, payUrl);
    await expect.poll(() => browserProblems.some((problem) => problem.includes("frame-ancestors 'none'"))).toBe(true);
    const framed = page.frames().find((frame) => frame !== page.mainFrame())!;
    await expect(framed.getByLabel("Verification code")).toHaveCount(0);
    // The one expected violation is the refusal itself; anything else still fails the test.
    browserProblems.splice(
      0,
      browserProblems.length,
      ...browserProblems.filter((problem) => !problem.includes("frame-ancestors 'none'")),
    );
  });

  test("GET never changes a payment: loading and reloading the pages leaves it awaiting its code", async ({ page }) => {
    const shop = merchant("shared");
    const { paymentId, payUrl } = await startWalletPayment(shop, { xLocale: "en" });
    await page.goto(withReturnUrl(payUrl, `${merchantSite()}/x`));
    await page.reload();
    await page.goto(payUrl.replace("/pay/otp/", "/pay/return/"));
    await expect(page.getByRole("heading", { level: 1, name: "Payment not finished" })).toBeVisible();
    expect((await checkPayment(shop, paymentId)).statusCode).toBe(12);
    await page.getByRole("link", { name: "Enter the verification code" }).click();
    await expect(otpPage(page).code).toBeVisible();
  });
});
