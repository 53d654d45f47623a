import { startCardPayment } from "./support/cards";
import { expect, test } from "./support/fixtures";
import { merchant, startWalletPayment } from "./support/gateway";
import { startQrPayment } from "./support/qr";

// Issue 16: a body we cannot read, posted to any page or hosted form, is a 400 page in the
// buyer's language, never a 500, and never reaches the payment.

const BOUNDARY = "----e2eBoundary";
const BAD_BODIES: { name: string; headers: Record<string, string>; data: Buffer }[] = [
  {
    name: "multipart without its closing boundary",
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    data: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="code"\r\n\r\n123456`),
  },
  {
    name: "multipart posing as a Server Action",
    headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, "next-action": "0".repeat(42) },
    data: Buffer.from(`garbage before any boundary`),
  },
  {
    name: "urlencoded that is not UTF-8",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    data: Buffer.from([0x63, 0x6f, 0x64, 0x65, 0x3d, 0xff, 0xfe, 0xc3]),
  },
  {
    name: "an oversized urlencoded body",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    data: Buffer.from(`code=${"1".repeat(1024 * 1024)}`),
  },
];

test("malformed, mistyped and oversized bodies to every page and form are a 400 page", async ({ request }) => {
  test.setTimeout(90_000);
  const shop = merchant("shared");
  const wallet = new URL((await startWalletPayment(shop, { xLocale: "fr_FR" })).payUrl);
  const card = new URL((await startCardPayment(shop)).payUrl);
  const qr = new URL((await startQrPayment(shop, { xLocale: "ar_DZ" })).qrPageUrl);
  const paymentId = wallet.pathname.split("/").at(-1)!;
  const pages = [
    { path: `${wallet.pathname}${wallet.search}`, locale: "fr" },
    { path: `${wallet.pathname}/confirm`, locale: "fr" },
    { path: `${wallet.pathname}/resend`, locale: "fr" },
    { path: `/fr/pay/return/${paymentId}${wallet.search}`, locale: "fr" },
    { path: `${card.pathname}${card.search}`, locale: "en" },
    { path: `${qr.pathname}${qr.search}`, locale: "ar" },
    { path: `/ar/sandbox/wallet/${paymentId}/answer`, locale: "ar" },
    { path: `/en/sandbox/wallet/${paymentId}?token=x`, locale: "en" },
    { path: "/en/card-provider-sandbox/challenge/pi_000000000000000000000000?client_secret=x", locale: "en" },
    { path: "/en/card-provider-sandbox/challenge/pi_000000000000000000000000/answer", locale: "en" },
    { path: "/en", locale: "en" },
    { path: "/demo/return?paymentId=x&statusCode=2", locale: "en" },
  ];
  const titles: Record<string, string> = {
    en: "This request could not be read",
    fr: "Cette requête n'a pas pu être lue",
    ar: "تعذّرت قراءة هذا الطلب",
  };
  for (const { path, locale } of pages) {
    for (const body of BAD_BODIES) {
      const response = await request.post(path, { headers: body.headers, data: body.data, maxRedirects: 0 });
      expect(response.status(), `${body.name} to ${path}`).toBe(400);
      expect(await response.text(), `${body.name} to ${path}`).toContain(titles[locale]);
    }
  }
  // Nothing posted moved the payment.
  const page = await request.get(`${wallet.pathname}${wallet.search}`);
  expect(page.status()).toBe(200);
});
