import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  brandName,
  checkCardNumber,
  checkCvc,
  checkExpiry,
  detectBrand,
  formatCardNumber,
  formatExpiry,
  normalizeDigits,
  passesLuhn,
} from "@/lib/validation/card-number";
import { isGenuineSignature, signEvent } from "@/simulators/card/sandbox-secrets";

/** The digit that makes `body` pass the Luhn check. */
function luhnCheckDigit(body: string): string {
  for (let digit = 0; digit <= 9; digit += 1) if (passesLuhn(`${body}${digit}`)) return String(digit);
  throw new Error("unreachable");
}

describe("Luhn", () => {
  it("accepts the contract's test cards and refuses a one-digit typo", () => {
    for (const number of [
      "4242424242424242",
      "5555555555554444",
      "4000000000000002",
      "4000000000009995",
      "4000000000003220",
    ]) {
      expect(passesLuhn(number)).toBe(true);
    }
    expect(passesLuhn("4242424242424241")).toBe(false);
    expect(passesLuhn("")).toBe(false);
    expect(passesLuhn("4242x24242424242")).toBe(false);
  });

  it("catches every single-digit change of a valid number", () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[0-9]{15}$/),
        fc.nat(15),
        fc.integer({ min: 1, max: 9 }),
        (body, position, delta) => {
          const valid = `${body}${luhnCheckDigit(body)}`;
          const changed =
            valid.slice(0, position) + String((Number(valid[position]) + delta) % 10) + valid.slice(position + 1);
          expect(passesLuhn(valid)).toBe(true);
          expect(passesLuhn(changed)).toBe(false);
        },
      ),
    );
  });
});

describe("brand detection", () => {
  it("knows Visa by 4 and Mastercard by 51-55 and 2221-2720, from the first digits typed", () => {
    expect(detectBrand("4")).toBe("visa");
    expect(detectBrand("5555 55")).toBe("mastercard");
    expect(detectBrand("51")).toBe("mastercard");
    expect(detectBrand("2221 00")).toBe("mastercard");
    expect(detectBrand("2720")).toBe("mastercard");
    expect(detectBrand("2721")).toBeNull();
    expect(detectBrand("56")).toBeNull();
    expect(detectBrand("3782")).toBeNull();
    expect(brandName("visa")).toBe("Visa");
    expect(brandName("mastercard")).toBe("Mastercard");
  });
});

describe("checkCardNumber", () => {
  it("answers brand and last4, never more, for a valid number typed with spaces or Arabic digits", () => {
    expect(checkCardNumber("4242 4242 4242 4242")).toMatchObject({ ok: true, brand: "visa", last4: "4242" });
    expect(checkCardNumber("٥٥٥٥ ٥٥٥٥ ٥٥٥٥ ٤٤٤٤")).toMatchObject({ ok: true, brand: "mastercard", last4: "4444" });
  });

  it("names what is wrong", () => {
    expect(checkCardNumber("")).toEqual({ ok: false, problem: "required" });
    expect(checkCardNumber("3782 822463 10005")).toEqual({ ok: false, problem: "unsupported_brand" });
    expect(checkCardNumber("4242 4242")).toEqual({ ok: false, problem: "incomplete" });
    expect(checkCardNumber("5555 5555 5555 44449")).toEqual({ ok: false, problem: "incomplete" });
    expect(checkCardNumber("4242 4242 4242 4241")).toEqual({ ok: false, problem: "luhn" });
    expect(checkCardNumber("4242 abcd 4242 4242")).toEqual({ ok: false, problem: "luhn" });
  });

  it("formats as groups of four while typing", () => {
    expect(formatCardNumber("4242424242424242")).toBe("4242 4242 4242 4242");
    expect(formatCardNumber("42424")).toBe("4242 4");
    expect(normalizeDigits("4242-4242 4242\u00a04242")).toBe("4242424242424242");
  });
});

describe("checkExpiry", () => {
  const now = new Date("2026-11-21T12:00:00Z");

  it("accepts MM/YY of this month or later", () => {
    expect(checkExpiry("11/26", now)).toEqual({ ok: true, month: 11, year: 2026 });
    expect(checkExpiry("01/27", now)).toEqual({ ok: true, month: 1, year: 2027 });
    expect(checkExpiry("1/2030", now)).toEqual({ ok: true, month: 1, year: 2030 });
    expect(checkExpiry("1228", now)).toEqual({ ok: true, month: 12, year: 2028 });
  });

  it("refuses a past month, an impossible month and other shapes", () => {
    expect(checkExpiry("10/26", now)).toEqual({ ok: false, problem: "past" });
    expect(checkExpiry("12/25", now)).toEqual({ ok: false, problem: "past" });
    expect(checkExpiry("13/27", now)).toEqual({ ok: false, problem: "format" });
    expect(checkExpiry("00/27", now)).toEqual({ ok: false, problem: "format" });
    expect(checkExpiry("2027-01", now)).toEqual({ ok: false, problem: "format" });
    expect(checkExpiry("", now)).toEqual({ ok: false, problem: "required" });
    expect(formatExpiry("1228")).toBe("12/28");
    expect(formatExpiry("1")).toBe("1");
  });
});

describe("checkCvc", () => {
  it("accepts any three digits and nothing else", () => {
    expect(checkCvc("123")).toEqual({ ok: true, cvc: "123" });
    expect(checkCvc("١٢٣")).toEqual({ ok: true, cvc: "123" });
    expect(checkCvc("12")).toEqual({ ok: false, problem: "format" });
    expect(checkCvc("1234")).toEqual({ ok: false, problem: "format" });
    expect(checkCvc("")).toEqual({ ok: false, problem: "required" });
  });
});

describe("the sandbox provider's event signature", () => {
  const key = Buffer.alloc(32, 7);
  const now = new Date("2026-11-21T12:00:00Z");

  it("verifies a signature over the exact body within five minutes", () => {
    const body = '{"id":"evt_1"}';
    const header = signEvent(key, body, now);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(isGenuineSignature(key, header, body, new Date(now.getTime() + 299_000))).toBe(true);
    expect(isGenuineSignature(key, header, body, new Date(now.getTime() + 301_000))).toBe(false);
    expect(isGenuineSignature(key, header, `${body} `, now)).toBe(false);
    expect(isGenuineSignature(Buffer.alloc(32, 8), header, body, now)).toBe(false);
    expect(isGenuineSignature(key, null, body, now)).toBe(false);
    expect(isGenuineSignature(key, "t=abc,v1=00", body, now)).toBe(false);
  });
});
