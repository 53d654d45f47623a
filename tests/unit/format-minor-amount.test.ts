import { describe, expect, it } from "vitest";
import { formatMinorAmount } from "@/lib/i18n/format-amount";
import { currencyExponents } from "@/lib/money/currencies";

// Intl separates with no-break spaces and marks Arabic with RLM; compare the visible text.
const shown = (minor: number, currency: string, locale: "en" | "fr" | "ar") =>
  formatMinorAmount({ minor, currency, locale })
    .replace(/[\u00a0\u202f]/g, " ")
    .replace(/[\u200e\u200f]/g, "");

describe("formatMinorAmount: minor units shown per locale with exactly the currency's decimals", () => {
  it("exponent 0 (JPY, XOF): no decimals", () => {
    expect(shown(1234, "JPY", "en")).toBe("JPY 1,234");
    expect(shown(1234, "XOF", "fr")).toBe("1 234 XOF");
    expect(shown(7, "JPY", "ar")).toBe("7 JPY");
  });

  it("exponent 2 (DZD, EUR): two decimals, trailing zeros kept", () => {
    expect(shown(150, "DZD", "en")).toBe("DZD 1.50");
    expect(shown(123456, "EUR", "fr")).toBe("1 234,56 EUR");
    expect(shown(5, "MAD", "ar")).toBe("0.05 MAD");
  });

  it("exponent 3 (TND, KWD): three decimals, the smallest unit shown", () => {
    expect(shown(12000, "TND", "en")).toBe("TND 12.000");
    expect(shown(1, "TND", "fr")).toBe("0,001 TND");
    expect(shown(1234567, "KWD", "ar")).toBe("1,234.567 KWD");
  });

  it("keeps every digit of the largest amount the gateway takes (no floating point on the way)", () => {
    expect(shown(1_000_000_000_001, "TND", "en")).toBe("TND 1,000,000,000.001");
    expect(shown(100_000_000_000, "DZD", "en")).toBe("DZD 1,000,000,000.00");
  });

  it("writes every accepted currency with its own number of decimals", () => {
    for (const [currency, exponent] of Object.entries(currencyExponents)) {
      const text = shown(1, currency, "en");
      const decimals = /\.(\d+)$/.exec(text)?.[1]?.length ?? 0;
      expect([currency, decimals]).toEqual([currency, exponent]);
    }
  });
});
