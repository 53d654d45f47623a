import { describe, expect, it } from "vitest";
import { explainReturnTarget } from "@/lib/hosted/resolve-return-target";
import { isOriginAllowed, LOCAL_DEVELOPMENT_ORIGINS } from "@/lib/urls/allowed-origins";
import en from "@/messages/en.json";
import fr from "@/messages/fr.json";
import ar from "@/messages/ar.json";

const paymentId = "3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12";
const demo = {
  paymentId,
  statusCode: 2,
  serviceRedirectUrl: "http://localhost:3000/demo/return",
  allowedOrigins: ["http://localhost:3000", ...LOCAL_DEVELOPMENT_ORIGINS],
};

describe("the any-port allow-list of the sandbox demo merchant", () => {
  it("admits http://localhost and http://127.0.0.1 on any port, and nothing else", () => {
    for (const origin of ["http://localhost:5173", "http://127.0.0.1:4199", "http://localhost"]) {
      expect(isOriginAllowed(origin, LOCAL_DEVELOPMENT_ORIGINS), origin).toBe(true);
    }
    for (const origin of [
      "https://localhost:5173",
      "http://localhost.evil.example:80",
      "http://127.0.0.2:80",
      "http://evil.example",
    ]) {
      expect(isOriginAllowed(origin, LOCAL_DEVELOPMENT_ORIGINS), origin).toBe(false);
    }
  });

  it("sends the buyer to a local returnUrl on any port (the issue's http://127.0.0.1:4199/thanks)", () => {
    const { target, ignored } = explainReturnTarget({ ...demo, returnUrl: "http://127.0.0.1:4199/thanks" });
    expect(target).toBe(`http://127.0.0.1:4199/thanks?paymentId=${paymentId}&statusCode=2`);
    expect(ignored).toBeNull();
  });
});

describe("an ignored returnUrl or redirectUrl is told, with why", () => {
  it("names the field and the origin that is not allow-listed, and falls back to the redirect URL", () => {
    const { target, ignored } = explainReturnTarget({ ...demo, returnUrl: "https://shop.example/thanks" });
    expect(target).toBe(`http://localhost:3000/demo/return?paymentId=${paymentId}&statusCode=2`);
    expect(ignored).toEqual({ field: "returnUrl", origin: "https://shop.example" });
  });

  it("names a redirectUrl that is no absolute http(s) URL", () => {
    expect(explainReturnTarget({ ...demo, redirectUrl: "javascript:alert(1)" }).ignored).toEqual({
      field: "redirectUrl",
      origin: null,
    });
  });

  it("says nothing when no URL was given", () => {
    expect(explainReturnTarget(demo).ignored).toBeNull();
  });

  it("has the sandbox note in English, French and Arabic, with the same placeholders", () => {
    for (const messages of [en, fr, ar]) {
      expect(messages.return.ignoredReturnUrl).toContain("{field}");
      expect(messages.return.ignoredReturnUrl).toContain("{origin}");
      expect(messages.return.ignoredReturnUrl).toContain("npm run merchant -- update --origin");
      expect(messages.return.invalidReturnUrl).toContain("{field}");
    }
    expect(en.return.ignoredReturnUrl).toBe(
      "Sandbox note: the {field} was ignored because its origin {origin} is neither the origin of the service's " +
        "redirect URL nor on its allow-list. Add it with npm run merchant -- update --origin.",
    );
  });
});
