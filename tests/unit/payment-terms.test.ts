import { describe, expect, it } from "vitest";
import { termsAccepted, TERMS_ACCEPTED_VALUE, TERMS_FIELD } from "@/lib/hosted/payment-terms";
import { termsUrl } from "@/lib/merchants/update-merchant.schema";

describe("the terms of payment (SATIM's checklist: a required checkbox linking the merchant's terms)", () => {
  it("lets a form through only with the box ticked", () => {
    expect(termsAccepted({ [TERMS_FIELD]: TERMS_ACCEPTED_VALUE })).toBe(true);
    expect(termsAccepted({})).toBe(false);
    expect(termsAccepted({ [TERMS_FIELD]: "" })).toBe(false);
    expect(termsAccepted({ [TERMS_FIELD]: "on" })).toBe(false);
  });

  it("takes an https address only, as the setting", () => {
    expect(termsUrl.safeParse("https://shop.example/terms").success).toBe(true);
    for (const wrong of [
      "http://shop.example/terms",
      "javascript:alert(1)",
      "/terms",
      `https://shop.example/${"a".repeat(2048)}`,
    ]) {
      expect(termsUrl.safeParse(wrong).success).toBe(false);
    }
  });
});
