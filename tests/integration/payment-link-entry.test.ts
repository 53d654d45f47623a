import QRCode from "qrcode";
import { beforeAll, describe, expect, it } from "vitest";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { clientAuth } from "../support/api";
import { getPaymentLinkPreview } from "@/lib/hosted/views/payment-link-metadata";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";

const gateway = useTestGateway();
let merchant: OnboardedMerchant;

async function newLink(body: object = {}) {
  const response = await gateway.api.post(
    "/api/v1/payment-links",
    { title: "Bag", amount: 10, currency: "DZD", countryCode: "DZA", locale: "ar", ...body },
    clientAuth(merchant),
  );
  return response.body.data as { id: string; url: string; qrImageUrl: string };
}
const visit = (path: string, acceptLanguage?: string) =>
  fetch(`${gateway.baseUrl}${path}`, {
    redirect: "manual",
    headers: acceptLanguage ? { "accept-language": acceptLanguage } : {},
  });

beforeAll(async () => {
  merchant = await createMerchant({ name: "Boutique Yasmine" });
});

describe("a payment link's url (/l/{id})", () => {
  // The hosted lane serves it in a language the browser names (issue 42); the route file app/l/[id] answers the rest.
  it("is its page in the browser's language at once, else a redirect to it in the link's own language", async () => {
    const { id } = await newLink();
    for (const [acceptLanguage, locale] of [
      ["fr-DZ,fr;q=0.9,en;q=0.8", "fr"],
      ["de-DE,en;q=0.5", "en"],
    ]) {
      const page = await visit(`/l/${id}`, acceptLanguage);
      expect(page.status, acceptLanguage).toBe(200);
      expect(await page.text(), acceptLanguage).toContain(`<html lang="${locale}"`);
    }
    const answer = await visit(`/l/${id}`, "de-DE");
    expect(answer.status).toBe(307);
    expect(answer.headers.get("location")).toBe(`/ar/l/${id}`);
    expect((await visit(`/l/${id}`)).headers.get("location")).toBe(`/ar/l/${id}`);
  });

  it("answers 410 with a page saying the link no longer takes payments once it is deactivated", async () => {
    const { id } = await newLink();
    await gateway.api.post(`/api/v1/payment-links/${id}/deactivate`, {}, clientAuth(merchant));
    // In the browser's language: its page, which sends the buyer on to the 410 in that language.
    const closed = await visit(`/l/${id}`, "en-US");
    expect(closed.status).toBe(307);
    expect(closed.headers.get("location")).toBe(`/en/l/${id}/closed`);
    const answer = await visit(`/en/l/${id}/closed`, "en-US");
    expect(answer.status).toBe(410);
    const html = await answer.text();
    expect(html).toContain('<html lang="en" dir="ltr">');
    expect(html).toContain("<h1>This link no longer takes payments</h1>");
    expect(html).toContain("Ask Boutique Yasmine for a new payment link.");
    // In none of ours: the 410 at once, in the link's own language.
    const arabic = await visit(`/l/${id}`);
    expect(arabic.status).toBe(410);
    expect(await arabic.text()).toContain('<html lang="ar" dir="rtl">');
  });

  it("names a merchant whose name holds a $ pattern as it is, on the 410 page and in the Open Graph text", async () => {
    const shop = await createMerchant({ name: "Cash$'n Carry $& Co" });
    const response = await gateway.api.post(
      "/api/v1/payment-links",
      { title: "Bag", amount: 10, currency: "DZD", countryCode: "DZA", locale: "en" },
      clientAuth(shop),
    );
    const { id } = response.body.data as { id: string };
    expect((await getPaymentLinkPreview(id))?.description).toMatch(/^Pay DZD\s10\.00 to Cash\$'n Carry \$& Co$/);
    await gateway.api.post(`/api/v1/payment-links/${id}/deactivate`, {}, clientAuth(shop));
    expect(await (await visit(`/l/${id}`)).text()).toContain("Ask Cash$'n Carry $&#38; Co for a new payment link.");
  });

  it("answers 404 for a link that does not exist", async () => {
    expect((await visit("/l/plink_00000000000000000000000000", "en")).status).toBe(404);
    expect((await visit("/l/nope", "en")).status).toBe(404);
  });
});

describe("a payment link's qrImageUrl", () => {
  it("is a PNG QR code of the link's url", async () => {
    const link = await newLink();
    const answer = await fetch(`${gateway.baseUrl}${new URL(link.qrImageUrl).pathname}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("image/png");
    const png = Buffer.from(await answer.arrayBuffer());
    expect(
      png.equals(await QRCode.toBuffer(link.url, { type: "png", errorCorrectionLevel: "M", margin: 4, width: 480 })),
    ).toBe(true);
    expect((await fetch(`${gateway.baseUrl}/l/plink_00000000000000000000000000/qr.png`)).status).toBe(404);
  });
});
