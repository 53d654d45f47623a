import { describe, expect, it } from "vitest";
import { pageContentSecurityPolicy } from "@/lib/hosted/page-headers";
import { contentSecurityPolicy, isRedirectPagePath } from "@/lib/http/security-headers";

// Browsers apply form-action to a form's redirects (Chromium blocks the 303 of a form posted under
// `form-action 'self'` to another origin): the page before a redirect provider's must allow the
// provider's page, or Pay never reaches SATIM, ClicToPay or Chargily in production.
describe("the page before a redirect provider's (contract 15)", () => {
  it("is told apart by its path", () => {
    expect(isRedirectPagePath("/ar/pay/redirect/2f6c7a36-8c61-4c1e-9c1f-0a7f1d2f3b4c")).toBe(true);
    expect(isRedirectPagePath("/en/pay/redirect/2f6c7a36/return")).toBe(false);
    expect(isRedirectPagePath("/en/pay/card/2f6c7a36")).toBe(false);
  });

  it("lets its form reach the providers' origins, and only that page", () => {
    const policy = contentSecurityPolicy({
      nonce: "n0nce",
      formActions: ["https://pay.chargily.net", "https://test2.satim.dz"],
    });
    expect(policy).toContain("form-action 'self' https://pay.chargily.net https://test2.satim.dz;");
    expect(contentSecurityPolicy({ nonce: "n0nce" })).toContain("form-action 'self';");
    // The sandbox's in-gateway simulators are the gateway's own origin.
    expect(pageContentSecurityPolicy("/en/pay/redirect/2f6c7a36", "n0nce", false)).toContain("form-action 'self';");
    expect(pageContentSecurityPolicy("/en/pay/checkout/2f6c7a36", "n0nce", false)).toContain("form-action 'self';");
  });
});
