import { describe, expect, it } from "vitest";
import { createTranslator } from "next-intl";
import { catalogs } from "@/lib/i18n/catalogs";
import { mergeMessages } from "@/lib/i18n/merge-messages";
import { formatAmount } from "@/lib/i18n/format-amount";
import { isLocale, localeNames, textDirection } from "@/lib/i18n/locales";
import { routing, type Locale } from "@/lib/i18n/routing";

const { en, fr, ar } = catalogs;

function flatten(messages: Record<string, unknown>, prefix = ""): Map<string, string> {
  const entries = new Map<string, string>();
  for (const [key, value] of Object.entries(messages)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") entries.set(path, value);
    else for (const [inner, text] of flatten(value as Record<string, unknown>, path)) entries.set(inner, text);
  }
  return entries;
}

/** The top-level ICU arguments a message takes (`{merchant}`, `{seconds, plural, ...}`). */
function argumentsOf(message: string): string[] {
  const names = new Set<string>();
  let depth = 0;
  for (let index = 0; index < message.length; index += 1) {
    const char = message[index];
    if (char === "{") {
      if (depth === 0) names.add(/^\{\s*(\w+)/.exec(message.slice(index))?.[1] ?? "");
      depth += 1;
    } else if (char === "}") depth -= 1;
  }
  return [...names].sort();
}

describe("message catalogs", () => {
  const english = flatten(en);

  it("has a catalog for every routed locale", () => {
    expect(Object.keys(catalogs).sort()).toEqual([...routing.locales].sort());
  });

  it.each(routing.locales)("%s has exactly the keys English has, none missing, none extra", (locale) => {
    const keys = [...flatten(catalogs[locale]).keys()].sort();
    expect(keys).toEqual([...english.keys()].sort());
  });

  it.each(routing.locales)("%s messages take the same arguments as English", (locale) => {
    const messages = flatten(catalogs[locale]);
    for (const [key, text] of english) {
      expect({ key, args: argumentsOf(messages.get(key) ?? "") }).toEqual({ key, args: argumentsOf(text) });
    }
  });

  it.each(routing.locales)(
    "%s messages are valid ICU and format without error for 0, 1, 2, 3, 11 and 100",
    (locale) => {
      const errors: string[] = [];
      const t = createTranslator({
        locale,
        messages: catalogs[locale],
        onError: (error) => errors.push(error.message),
      });
      for (const [key, text] of flatten(catalogs[locale])) {
        for (const count of [0, 1, 2, 3, 11, 100]) {
          const values = Object.fromEntries(
            argumentsOf(text).map((name) => [name, name === "merchant" ? "Demo Shop" : count]),
          );
          const formatted = t(key as never, values as never);
          expect(formatted).not.toContain("{");
        }
      }
      expect(errors).toEqual([]);
    },
  );

  it("names the contract's accessible labels in English", () => {
    expect(english.get("otp.codeLabel")).toBe("Verification code");
    expect(english.get("otp.confirm")).toBe("Confirm payment");
    expect(english.get("otp.resend")).toBe("Resend code");
    expect(english.get("return.successful")).toBe("Payment successful");
    expect(english.get("return.failed")).toBe("Payment failed");
    expect(english.get("return.authorized")).toBe("Payment authorized");
  });

  it("translates rather than copies: French and Arabic differ from English on the page's main texts", () => {
    for (const key of [
      "otp.title",
      "otp.codeLabel",
      "otp.confirm",
      "otp.resend",
      "return.successful",
      "linkInvalid.title",
    ]) {
      expect(flatten(fr).get(key)).not.toBe(english.get(key));
      expect(flatten(ar).get(key)).not.toBe(english.get(key));
    }
  });
});

describe("locales", () => {
  it("writes Arabic right to left and the others left to right", () => {
    expect(textDirection("ar")).toBe("rtl");
    expect(textDirection("en")).toBe("ltr");
    expect(textDirection("fr")).toBe("ltr");
  });

  it("names every language in itself for the switcher", () => {
    expect(localeNames).toEqual({ en: "English", fr: "Français", ar: "العربية" });
  });

  it("accepts only routed locales", () => {
    expect(isLocale("fr")).toBe(true);
    expect(isLocale("de")).toBe(false);
    expect(isLocale("fr_FR")).toBe(false);
  });
});

describe("formatAmount", () => {
  // Intl separates with no-break spaces and marks Arabic with RLM; compare the visible text.
  const shown = (options: Parameters<typeof formatAmount>[0]) =>
    formatAmount(options)
      .replace(/[\u00a0\u202f]/g, " ")
      .replace(/\u200f/g, "");

  it("shows TND with its three decimals in every language", () => {
    expect(shown({ amount: 12.5, currency: "TND", locale: "en" })).toBe("TND 12.500");
    expect(shown({ amount: 12.5, currency: "TND", locale: "fr" })).toBe("12,500 TND");
    expect(shown({ amount: 12.5, currency: "TND", locale: "ar" })).toBe("12.500 TND");
  });

  it("never rounds away a minor unit the payment holds", () => {
    expect(shown({ amount: 0.001, currency: "TND", locale: "en" })).toBe("TND 0.001");
    expect(shown({ amount: 1234.56, currency: "DZD", locale: "en" })).toBe("DZD 1,234.56");
  });

  it("groups digits the way each language does", () => {
    expect(shown({ amount: 1234567.5, currency: "MAD", locale: "en" })).toBe("MAD 1,234,567.50");
    expect(shown({ amount: 1234567.5, currency: "MAD", locale: "fr" })).toBe("1 234 567,50 MAD");
  });

  it("keeps Western digits in Arabic, as Maghreb wallets and the typed code use them", () => {
    const arabic = formatAmount({ amount: 1234.5, currency: "DZD", locale: "ar" });
    expect(arabic).toMatch(/1,234\.50/);
    expect(arabic).not.toMatch(/[\u0660-\u0669]/);
  });

  it("uses the ISO table's digits where CLDR differs (zero-decimal XOF)", () => {
    expect(shown({ amount: 5000, currency: "XOF", locale: "en" })).toBe("XOF 5,000");
    expect(shown({ amount: 5000, currency: "JOD", locale: "en" })).toBe("JOD 5,000.000");
  });
});

describe("a payment method's own words (lib/payment-methods/<method>/declaration/messages.<locale>.json)", () => {
  it("are added under the pages' namespaces, and a word given twice is refused rather than overridden", () => {
    const pages = { redirect: { pay: "Pay {amount}" }, checkout: { methods: { WALLET_V2: "Wallet" } } };
    expect(mergeMessages(pages, { redirect: { introAcme: "Acme" }, checkout: { methods: { ACME: "Acme" } } })).toEqual({
      redirect: { pay: "Pay {amount}", introAcme: "Acme" },
      checkout: { methods: { WALLET_V2: "Wallet", ACME: "Acme" } },
    });
    expect(() => mergeMessages(pages, { redirect: { pay: "Other" } })).toThrow("redirect.pay");
    expect(() => mergeMessages(pages, { checkout: "flat" })).toThrow("checkout");
  });

  it("are in every locale's catalogue", () => {
    for (const locale of ["en", "fr", "ar"] as const)
      expect(flatten(catalogs[locale]).get("redirect.introChargily"), locale).toBeTruthy();
  });
});
