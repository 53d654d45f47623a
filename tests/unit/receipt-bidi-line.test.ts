import { describe, expect, it } from "vitest";
import { visualTokens } from "@/lib/hosted/receipts/bidi-line";

/** The pieces left to right, gaps as "_". */
const drawn = (text: string, direction: "ltr" | "rtl") =>
  visualTokens(text, direction)
    .map((token) => (token.space ? "_" : token.text))
    .join("|");

describe("a receipt line's pieces in drawing order (UAX #9 by bidi-js)", () => {
  it("keeps a Latin line as written", () => {
    expect(drawn("Reçu de paiement", "ltr")).toBe("Reçu|_|de|_|paiement");
  });

  it("sets Arabic words right to left, each word kept in its letters' order for the shaper", () => {
    expect(drawn("إيصال الدفع", "rtl")).toBe("الدفع|_|إيصال");
  });

  it("keeps an amount and a Latin name whole and left to right inside Arabic", () => {
    expect(drawn("المبلغ 1,500.00", "rtl")).toBe("1,500.00|_|المبلغ");
    // Number, then code, in a right-to-left line: two left-to-right runs set right to left (hence
    // the PDF draws an amount as a left-to-right line of its own, as the page's <bdi> does).
    expect(drawn("1,500.00 DZD", "rtl")).toBe("DZD|_|1,500.00");
    expect(drawn("1,500.00 DZD", "ltr")).toBe("1,500.00|_|DZD");
    expect(drawn("متجر Atlas", "rtl")).toBe("Atlas|_|متجر");
  });

  it("mirrors a bracket that ends up in a right-to-left run", () => {
    expect(drawn("9:14 م (UTC)", "rtl")).toBe("(|UTC|)|_|م|_|9:14");
  });
});
