import { describe, expect, it, vi } from "vitest";

// The database refuses every connection (a restart, a failover), as postgres.js reports it.
vi.mock("@/lib/db/client", () => ({
  getDb: async () => {
    throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
  },
}));

const { GET: redirectReturn } = await import("@/app/[locale]/pay/redirect/[paymentId]/return/route");
const { POST: pressPay } = await import("@/app/[locale]/pay/redirect/[paymentId]/go/route");
const { GET: cardComplete } = await import("@/app/[locale]/pay/card/[paymentId]/complete/route");
const { orUnavailablePage } = await import("@/lib/hosted/hosted-form-route");

const paymentId = "3f1c2a9e-5b7d-4c1e-9a2b-8d6e4f0a1b2c";
const context = (locale: string) => ({ params: Promise.resolve({ locale, paymentId }) });

describe("a redirect payment's hosted addresses while the database cannot be reached (contract 12)", () => {
  it("answer the buyer coming back from the provider with a 503 page in their language, never a bare 500", async () => {
    const answer = await redirectReturn(
      new Request(`http://gateway.test/fr/pay/redirect/${paymentId}/return?token=abc&orderId=x`),
      context("fr"),
    );
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("5");
    expect(answer.headers.get("cache-control")).toContain("no-store");
    const page = await answer.text();
    expect(page).toContain("<h1>Le service de paiement est momentanément indisponible</h1>");
    expect(page).toContain("Votre paiement est en sécurité");
  });

  it("answer Pay pressed on the page before the provider's with the same page, in Arabic right to left", async () => {
    const answer = await pressPay(
      new Request(`http://gateway.test/ar/pay/redirect/${paymentId}/go`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
        body: new URLSearchParams({ token: "abc", formToken: "x" }),
      }),
      context("ar"),
    );
    expect(answer.status).toBe(503);
    const page = await answer.text();
    expect(page).toContain('<html lang="ar" dir="rtl">');
    expect(page).toContain("خدمة الدفع غير متاحة مؤقتًا");
  });

  it("answer the buyer coming back from the card provider's 3-D Secure with the same page", async () => {
    const answer = await cardComplete(
      new Request(`http://gateway.test/en/pay/card/${paymentId}/complete?token=abc&payment_intent=pi_1`),
      context("en"),
    );
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("5");
    expect(await answer.text()).toContain("Your payment is safe");
  });

  it("leave any other error to the server's 500: only an unreachable database is a 503", async () => {
    await expect(
      orUnavailablePage("en", async () => {
        throw new Error("a bug");
      }),
    ).rejects.toThrow("a bug");
  });
});
