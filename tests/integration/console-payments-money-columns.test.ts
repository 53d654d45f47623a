import { describe, expect, it } from "vitest";
import { paymentsPage } from "@/app/[locale]/console/_pages/payments-page";
import { createConsoleUser } from "../support/console";
import { renderConsolePage, textOf } from "../support/console-pages";
import { storedPayment } from "../support/console-payments";
import { createMerchant } from "../support/factories";
import { serviceIdOf } from "../support/payments";

describe("payments list: the money that moved", () => {
  it("shows the captured amount under the amount for a part capture, nothing where they are equal", async () => {
    const merchant = await createMerchant();
    const serviceId = await serviceIdOf(merchant);
    const owner = await createConsoleUser([{ merchant, role: "owner" }]);
    const partial = await storedPayment(serviceId, {
      currency: "TND",
      amountMinor: 12_000,
      capturedMinor: 10_500,
      refundsMinor: [1_250, 2_000],
      state: "PARTIALLY_REFUNDED",
    });
    const whole = await storedPayment(serviceId, { currency: "DZD", amountMinor: 500_000, state: "SUCCEEDED" });
    const rowOf = (html: string, paymentId: string) =>
      textOf(html.split(`/payments/${paymentId}"`)[1]!.split("</tr>")[0]!);
    const en = await renderConsolePage(paymentsPage, { userId: owner.id, locale: "en" });
    expect(rowOf(en, partial.id)).toContain("TND 12.000 Captured TND 10.500");
    expect(rowOf(en, whole.id)).toContain("DZD 5,000.00");
    expect(rowOf(en, whole.id)).not.toContain("Captured");
    const fr = await renderConsolePage(paymentsPage, { userId: owner.id, locale: "fr" });
    expect(rowOf(fr, partial.id)).toContain("Capturé : 10,500 TND");
    const ar = await renderConsolePage(paymentsPage, { userId: owner.id, locale: "ar" });
    expect(rowOf(ar, partial.id)).toContain("المحصَّل:");
  });

  it("offers both exports of the current filters: commas, and semicolons with decimal commas", async () => {
    const merchant = await createMerchant();
    const owner = await createConsoleUser([{ merchant, role: "viewer" }]);
    const html = await renderConsolePage(paymentsPage, {
      userId: owner.id,
      locale: "en",
      query: { status: "SUCCEEDED" },
    });
    expect(html).toContain('href="/en/console/payments/export?status=SUCCEEDED"');
    expect(html).toContain('href="/en/console/payments/export?status=SUCCEEDED&amp;separator=semicolon"');
    expect(textOf(html)).toContain("Excel: semicolons, decimal commas");
  });
});
