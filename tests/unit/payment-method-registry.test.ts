import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PAYMENT_METHOD_CODES } from "@/lib/payment-methods/codes/payment-method-codes";
import { PAYMENT_METHOD_PARTS } from "@/lib/payment-methods/contract/payment-method-module";
import { PAYMENT_METHODS, paymentMethodOf } from "@/lib/payment-methods/registry/payment-method-registry";
import {
  METHOD_DECLARATIONS,
  PROVIDER_NAMES,
  providerPageOrigins,
} from "@/lib/payment-methods/declarations/method-declarations";
import { catalogs } from "@/lib/i18n/catalogs";
import { getConfig } from "@/lib/config";
import { CONSOLE_METHODS, parsePaymentListQuery } from "@/lib/console/payments/payment-list-filters";

const ROOT = path.resolve(import.meta.dirname, "../..");

describe("the payment method registry", () => {
  it("has one module per method code, each under its own code", () => {
    expect(Object.keys(PAYMENT_METHODS).sort()).toEqual([...PAYMENT_METHOD_CODES].sort());
    for (const code of PAYMENT_METHOD_CODES) expect(PAYMENT_METHODS[code].code).toBe(code);
  });

  it.each(PAYMENT_METHOD_CODES)("%s provides every part of the interface", (code) => {
    const method = PAYMENT_METHODS[code] as unknown as Record<string, unknown>;
    // `redirect` is null for a method that is not REDIRECT (contract 15).
    const missing = PAYMENT_METHOD_PARTS.filter(
      (part) => method[part] === undefined || (method[part] === null && part !== "redirect"),
    );
    expect(missing).toEqual([]);
    const valueParts: readonly string[] = [
      "code",
      "hostedStep",
      "showsQrCodeForQrIntents",
      "userListing",
      "providerOperations",
      "funds",
      "redirect",
      "console",
      "endUserMessages",
    ];
    for (const part of PAYMENT_METHOD_PARTS.filter((part) => !valueParts.includes(part))) {
      expect(typeof method[part], `${code}.${part}`).toBe("function");
    }
    expect(["otp", "card", "redirect"]).toContain(method.hostedStep);
    // A REDIRECT method is its provider plus the archetype: the page before the provider's is its hosted step.
    expect(
      method.hostedStep === "redirect",
      `${code}: hostedStep redirect exactly when it has a redirect provider`,
    ).toBe(method.redirect !== null);
    expect(typeof method.showsQrCodeForQrIntents, `${code}.showsQrCodeForQrIntents`).toBe("boolean");
    expect(Array.isArray(method.providerOperations), `${code}.providerOperations`).toBe(true);
  });

  it("has, for each method declared in <method>/declaration, a module of the same code and provider", () => {
    for (const declaration of METHOD_DECLARATIONS) {
      const method = PAYMENT_METHODS[declaration.code];
      expect(method.code).toBe(declaration.code);
      if (method.redirect) {
        expect(method.redirect.provider).toBe(declaration.provider);
        expect(method.redirect.countries).toEqual(
          "countries" in declaration.catalog ? declaration.catalog.countries : undefined,
        );
      }
    }
    expect(PROVIDER_NAMES).toEqual(["wallet", "card", "satim", "clictopay", "cmi", "chargily"]);
  });

  it("finds no module for a payment no method has proceeded, nor for an unknown code", () => {
    expect(paymentMethodOf(null)).toBeNull();
    expect(paymentMethodOf("BANK_TRANSFER")).toBeNull();
    expect(paymentMethodOf("CARD_PROVIDER")?.hostedStep).toBe("card");
    expect(paymentMethodOf("WALLET_V2")?.hostedStep).toBe("otp");
    expect(paymentMethodOf("CLICTOPAY")?.redirect?.reservations).not.toBeNull();
    expect(paymentMethodOf("CMI")?.redirect?.reservations).not.toBeNull();
    expect(paymentMethodOf("CMI")?.redirect?.browserForm).toBeTypeOf("function");
    expect(paymentMethodOf("SATIM")?.redirect?.reservations).toBeNull();
    expect(paymentMethodOf("CHARGILY")?.redirect).toMatchObject({
      reservations: null,
      refundElsewhere: expect.stringContaining("Chargily Pay dashboard"),
    });
    expect(paymentMethodOf("CHARGILY")?.redirect?.notifications).not.toBeNull();
  });

  it("gives each redirect method the archetype's calls and its register, refund (capture, release) handlers", () => {
    const redirectMethods = PAYMENT_METHOD_CODES.filter((code) => PAYMENT_METHODS[code].redirect !== null);
    expect(redirectMethods).toEqual(["SATIM", "CLICTOPAY", "CMI", "CHARGILY"]);
    for (const code of redirectMethods) {
      const { redirect, providerOperations } = PAYMENT_METHODS[code];
      for (const call of ["amountRefusal", "orderNumberFor", "account", "register", "outcome", "refund"] as const) {
        expect(typeof redirect![call], `${code}.redirect.${call}`).toBe("function");
      }
      const reserving = redirect!.reservations
        ? [`${redirect!.provider}:capture`, `${redirect!.provider}:release`]
        : redirect!.closeUnpaid
          ? [`${redirect!.provider}:release`]
          : [];
      expect(providerOperations.map((handler) => `${handler.provider}:${handler.kind}`)).toEqual([
        `${redirect!.provider}:register`,
        `${redirect!.provider}:refund`,
        ...reserving,
      ]);
    }
  });
});

/*
 * A comparison with a method code outside the method's own module (lib/payment-methods/<method>/)
 * is a branch a new method could silently miss: code outside a module asks the registry for the
 * method's part (paymentMethodOf(code).hostedStep, ...) or keys a table by PaymentMethodCode that
 * TypeScript proves complete. None is left; a new one fails here.
 */
const STILL_COMPARING: Record<string, number> = {};
const CODE = `(?:${PAYMENT_METHOD_CODES.join("|")})`;
// `=== "X"`, `"X" !==`, `eq(column, "X")` and SQL `= 'X'`; a `case "X":` of an exhaustive switch is the other
// allowed form.
const COMPARISON = new RegExp(
  `[!=]==?\\s*["']${CODE}["']|["']${CODE}["']\\s*[!=]==?|eq\\([^)]*["']${CODE}["']\\)|=\\s*'${CODE}'`,
  "g",
);
const METHOD_MODULE = /^lib\/payment-methods\/(?!codes\/|contract\/|registry\/)[^/]+\//;

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const relative = `${dir}/${name}`;
    if (statSync(path.join(ROOT, relative)).isDirectory()) return sourceFiles(relative);
    return /\.tsx?$/.test(name) ? [relative] : [];
  });
}

describe("each redirect provider's credentials (the console's \"Payment methods\" form is drawn from them)", () => {
  const redirectCodes = PAYMENT_METHOD_CODES.filter((code) => PAYMENT_METHODS[code].redirect !== null);
  it.each(redirectCodes)(
    "%s declares its fields: distinct names, a secret among them, each labelled in en, fr and ar",
    (code) => {
      const fields = PAYMENT_METHODS[code].redirect!.credentialFields;
      expect(fields.length).toBeGreaterThan(0);
      expect(new Set(fields.map((field) => field.name)).size).toBe(fields.length);
      expect(fields.some((field) => field.secret)).toBe(true);
      for (const locale of ["en", "fr", "ar"] as const) {
        const labels = (catalogs[locale] as { console: { settings: { methods: { fields: Record<string, string> } } } })
          .console.settings.methods.fields;
        for (const field of fields)
          expect(labels[field.labelKey], `${locale}: console.settings.methods.fields.${field.labelKey}`).toBeTruthy();
      }
    },
  );
});

describe("what the generic lists read from each method (issue 43: a new provider touches none of them)", () => {
  const consoleWords = (locale: "en" | "fr" | "ar") =>
    (catalogs[locale] as unknown as { consolePayments: { method: Record<string, string> } }).consolePayments.method;
  const redirectWords = (locale: "en" | "fr" | "ar") =>
    (catalogs[locale] as unknown as { redirect: Record<string, string> }).redirect;

  it.each(PAYMENT_METHOD_CODES)(
    "%s names its payments in the console (a filter value, words in en, fr and ar) and tells the buyer what to do",
    (code) => {
      const method = PAYMENT_METHODS[code];
      expect(method.console.kind).toMatch(/^[a-z_]+$/);
      expect(CONSOLE_METHODS).toContain(method.console.kind);
      for (const locale of ["en", "fr", "ar"] as const)
        expect(
          consoleWords(locale)[method.console.kind],
          `${locale}: consolePayments.method.${method.console.kind}`,
        ).toBeTruthy();
      expect(method.endUserMessages.requiresAction).toMatch(/^Please .+\.$/);
      expect(method.endUserMessages.preAuthorized).toMatch(/^The amount is .+\.$/);
    },
  );

  it("keeps the console's method filter values (the list's URLs) as they were", () => {
    expect(CONSOLE_METHODS).toEqual(["wallet", "qr_wallet", "card", "satim", "clictopay", "cmi", "chargily"]);
    expect(parsePaymentListQuery({ method: "bank" })).toEqual({
      ok: false,
      problems: [
        { field: "method", message: `must be ${CONSOLE_METHODS.slice(0, -1).join(", ")} or ${CONSOLE_METHODS.at(-1)}` },
      ],
    });
  });

  const redirectCodes = PAYMENT_METHOD_CODES.filter((code) => PAYMENT_METHODS[code].redirect !== null);
  it.each(redirectCodes)(
    "%s declares its page's words (in en, fr and ar), its page's origins (in its declaration) " +
      "and the console kind of its provider",
    (code) => {
      const provider = PAYMENT_METHODS[code].redirect!;
      for (const locale of ["en", "fr", "ar"] as const) {
        expect(
          redirectWords(locale)[provider.page.words.intro],
          `${locale}: redirect.${provider.page.words.intro}`,
        ).toBeTruthy();
        expect(
          redirectWords(locale)[provider.page.words.logoAlt],
          `${locale}: redirect.${provider.page.words.logoAlt}`,
        ).toBeTruthy();
      }
      expect(PAYMENT_METHODS[code].console.kind).toBe(provider.provider);
      expect(provider.requiresActionMessage).toMatch(/^Please .+\.$/);
      // The sandbox's in-gateway simulator is 'self'; each origin the declaration names is one.
      const declaration = METHOD_DECLARATIONS.find((candidate) => candidate.code === code)!;
      expect("pageOrigins" in declaration, `${code}: its declaration says where its page is`).toBe(true);
      for (const origin of providerPageOrigins(getConfig())) expect(new URL(origin).origin).toBe(origin);
    },
  );
});

describe("method-code comparisons", () => {
  it("live only in the method's own module, besides the listed guards still to move", () => {
    const found: Record<string, number> = {};
    for (const file of ["lib", "app", "components"].flatMap(sourceFiles)) {
      if (METHOD_MODULE.test(file)) continue;
      const count = readFileSync(path.join(ROOT, file), "utf8").match(COMPARISON)?.length ?? 0;
      if (count > 0) found[file] = count;
    }
    expect(found).toEqual(STILL_COMPARING);
  });
});
