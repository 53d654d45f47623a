import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  AmountError,
  formatMinorUnits,
  fromMinorUnits,
  MAX_AMOUNT_STANDARD_UNITS,
  toMinorUnits,
} from "@/lib/money/amount";
import { amountSchema, minorUnitsOrThrow } from "@/lib/money/amount.schema";
import { currencyExponent, currencyExponents, isSupportedCurrency } from "@/lib/money/currencies";
import { ApiError } from "@/lib/errors/api-error";

describe("ISO 4217 exponents", () => {
  it.each([
    ["DZD", 2],
    ["MAD", 2],
    ["TND", 3],
    ["EUR", 2],
    ["USD", 2],
    ["JPY", 0],
  ])("%s has %i decimals", (currency, exponent) => {
    expect(currencyExponent(currency)).toBe(exponent);
  });

  it("knows no currency it was not told about", () => {
    expect(isSupportedCurrency("XXX")).toBe(false);
    expect(isSupportedCurrency("toString")).toBe(false);
    expect(() => currencyExponent("XXX")).toThrow();
  });
});

describe("standard units to minor units", () => {
  it.each([
    [0.3, "EUR", 30],
    [0.1, "EUR", 10],
    [19.99, "USD", 1999],
    [1.005, "TND", 1005],
    [12.5, "TND", 12500],
    [1500, "DZD", 150000],
    [7, "JPY", 7],
    [1.1, "DZD", 110],
    [4.35, "MAD", 435],
    [1_000_000_000, "EUR", 100_000_000_000],
    [999_999_999.999, "TND", 999_999_999_999],
  ])("converts %d %s exactly to %i", (amount, currency, minor) => {
    expect(toMinorUnits(amount, currency)).toBe(minor);
  });

  it.each([
    [0.001, "EUR", /at most 2 decimal places/],
    [1.0001, "TND", /at most 3 decimal places/],
    [1.5, "JPY", /whole number/],
    [0, "EUR", /greater than zero/],
    [-1, "EUR", /greater than zero/],
    [-0.01, "EUR", /greater than zero/],
    [Number.NaN, "EUR", /finite/],
    [Number.POSITIVE_INFINITY, "EUR", /finite/],
    [1_000_000_000.01, "EUR", /at most 1000000000/],
    [1e21, "EUR", /at most 1000000000/],
    [1e-7, "EUR", /decimal places/],
  ])("refuses %d %s", (amount, currency, message) => {
    expect(() => toMinorUnits(amount, currency)).toThrow(AmountError);
    expect(() => toMinorUnits(amount, currency)).toThrow(message);
  });

  it("reads numbers written with an exponent by their exact decimal value", () => {
    expect(toMinorUnits(1e3, "EUR")).toBe(100_000);
    expect(toMinorUnits(1.5e2, "TND")).toBe(150_000);
    expect(toMinorUnits(5e-3, "TND")).toBe(5);
  });

  it("turns a validation failure into a validation_error on the field", () => {
    try {
      minorUnitsOrThrow(0.001, "EUR", "amount");
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).errorName).toBe("validation_error");
      expect((error as ApiError).details).toEqual([
        { path: "amount", message: "must have at most 2 decimal places for EUR" },
      ]);
    }
  });
});

describe("minor units back to JSON numbers", () => {
  it("renders 30 cents as 0.3, not 0.30000000000000004", () => {
    const sum = toMinorUnits(0.1, "EUR") + toMinorUnits(0.2, "EUR");
    expect(sum).toBe(toMinorUnits(0.3, "EUR"));
    expect(JSON.stringify({ amount: fromMinorUnits(sum, "EUR") })).toBe('{"amount":0.3}');
  });

  it("keeps every decimal of the currency in the exact text form", () => {
    expect(formatMinorUnits(30, "EUR")).toBe("0.30");
    expect(formatMinorUnits(1005, "TND")).toBe("1.005");
    expect(formatMinorUnits(5, "TND")).toBe("0.005");
    expect(formatMinorUnits(7, "JPY")).toBe("7");
    expect(formatMinorUnits(-250, "DZD")).toBe("-2.50");
  });

  it("round-trips every amount of every currency exactly", () => {
    const currencies = Object.keys(currencyExponents);
    fc.assert(
      fc.property(fc.constantFrom(...currencies), fc.double({ min: 0, max: 1, noNaN: true }), (currency, fraction) => {
        const maxMinor = MAX_AMOUNT_STANDARD_UNITS * 10 ** currencyExponent(currency);
        const minor = Math.max(1, Math.floor(fraction * maxMinor));
        const amount = fromMinorUnits(minor, currency);
        expect(toMinorUnits(amount, currency)).toBe(minor);
        expect(String(amount)).toBe(String(Number(formatMinorUnits(minor, currency))));
      }),
      { numRuns: 2000 },
    );
  });

  it("adds refunds in minor units without drift, whatever the split", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 99_999 }), { minLength: 1, maxLength: 30 }), (parts) => {
        const total = parts.reduce((sum, part) => sum + part, 0);
        const viaUnits = parts
          .map((part) => toMinorUnits(fromMinorUnits(part, "TND"), "TND"))
          .reduce((a, b) => a + b, 0);
        expect(viaUnits).toBe(total);
      }),
    );
  });
});

describe("amountSchema", () => {
  it("accepts positive numbers with up to 3 decimals", () => {
    expect(amountSchema.safeParse(12.345).success).toBe(true);
    expect(amountSchema.safeParse(1_000_000_000).success).toBe(true);
  });

  it.each([[0], [-5], [1.2345], [1_000_000_001], ["12"], [null], [Number.NaN]])("refuses %s", (value) => {
    expect(amountSchema.safeParse(value).success).toBe(false);
  });
});
