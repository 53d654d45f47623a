import { describe, expect, it } from "vitest";
import { checkoutPageMode } from "@/lib/hosted/checkout-page";
import { preferredLocale } from "@/lib/i18n/accept-language";
import { PAYMENT_STATES } from "@/lib/payments/core/payment-state";

describe("preferredLocale (a payment link's language from Accept-Language)", () => {
  it("takes the highest weighted of en, fr, ar, by primary subtag", () => {
    expect(preferredLocale("fr-DZ,fr;q=0.9,en;q=0.8")).toBe("fr");
    expect(preferredLocale("de-DE,de;q=0.9,ar;q=0.5,en;q=0.4")).toBe("ar");
    expect(preferredLocale("en;q=0.2, ar-MA;q=0.7")).toBe("ar");
    expect(preferredLocale("EN-us")).toBe("en");
  });

  it("answers null when it names none of them, so the link's own locale applies", () => {
    expect(preferredLocale("de-DE,es;q=0.5")).toBeNull();
    expect(preferredLocale("*")).toBeNull();
    expect(preferredLocale("fr;q=0")).toBeNull();
    expect(preferredLocale("")).toBeNull();
    expect(preferredLocale(null)).toBeNull();
  });
});

describe("checkoutPageMode", () => {
  it("offers the choice only for a created intent, a QR one starting at once", () => {
    expect(checkoutPageMode({ state: "CREATED", expired: false, transactionType: null })).toBe("choose");
    expect(checkoutPageMode({ state: "CREATED", expired: false, transactionType: "QR_CODE" })).toBe("start_qr");
  });

  it("says expired for any payment past its time, goes on with a step under way, and says finished otherwise", () => {
    for (const state of PAYMENT_STATES) {
      const mode = checkoutPageMode({ state, expired: false, transactionType: null });
      if (state === "PROCESSING" || state === "REQUIRES_ACTION") expect(mode).toBe("continue");
      else if (state !== "CREATED") expect(mode).toBe("finished");
      expect(checkoutPageMode({ state, expired: true, transactionType: null })).toBe("expired");
    }
  });
});
