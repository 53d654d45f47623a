import { describe, expect, it } from "vitest";
import { hostedPageQuery } from "@/lib/hosted/hosted-page-query";
import { getConfig } from "@/lib/config";
import {
  cardCompletePath,
  cardCompleteUrl,
  challengePageUrl,
  otpPagePath,
  pagePathWithoutLocale,
  providerReturnWithIntent,
  returnPagePath,
} from "@/lib/urls/hosted-urls";
import { hostedLinkForm, normalizeOtpCode, otpCode } from "@/lib/hosted/otp-form.schema";
import { unlocalizedPageUrl } from "@/lib/hosted/page-url";

const paymentId = "3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12";

describe("hosted page links", () => {
  it("carries the token and the merchant's returnUrl from the OTP page to the return page, encoded", () => {
    const returnUrl = "https://shop.example/r?order=42&x=a b";
    const path = returnPagePath({ locale: "fr", paymentId, token: "t0k", returnUrl });
    const url = new URL(path, "http://gateway.test");
    expect(url.pathname).toBe(`/fr/pay/return/${paymentId}`);
    expect(url.searchParams.get("token")).toBe("t0k");
    expect(url.searchParams.get("returnUrl")).toBe(returnUrl);
  });

  it("gives the language switcher each page's path without its locale, the same the page has after it", () => {
    expect(pagePathWithoutLocale("otp", paymentId)).toBe(`/pay/otp/${paymentId}`);
    expect(pagePathWithoutLocale("wallet-app", paymentId)).toBe(`/sandbox/wallet/${paymentId}`);
    expect(pagePathWithoutLocale("challenge", "pi_1")).toBe("/card-provider-sandbox/challenge/pi_1");
    expect(
      otpPagePath({ locale: "fr", paymentId, token: "t" }).startsWith(`/fr${pagePathWithoutLocale("otp", paymentId)}?`),
    ).toBe(true);
  });

  it("leaves returnUrl out when the merchant gave none", () => {
    expect(otpPagePath({ locale: "ar", paymentId, token: "t0k" })).toBe(`/ar/pay/otp/${paymentId}?token=t0k`);
  });

  it("reads the first value of each query parameter and keeps the whole query for the language switcher", () => {
    const query = hostedPageQuery({ token: ["a", "b"], returnUrl: "https://shop.example/r?x=1", other: "y" });
    expect(query.token).toBe("a");
    expect(query.returnUrl).toBe("https://shop.example/r?x=1");
    expect(new URLSearchParams(query.search).getAll("token")).toEqual(["a", "b"]);
    expect(new URLSearchParams(query.search).get("returnUrl")).toBe("https://shop.example/r?x=1");
  });

  it("treats an empty token as none", () => {
    expect(hostedPageQuery({ token: "" }).token).toBeUndefined();
  });

  it("strips the locale from the page's own URL for the 404 page's switcher, keeping the query", () => {
    expect(unlocalizedPageUrl(`/fr/pay/otp/${paymentId}?token=x&returnUrl=y`, ["en", "fr", "ar"])).toEqual({
      path: `/pay/otp/${paymentId}`,
      search: "token=x&returnUrl=y",
    });
    expect(unlocalizedPageUrl("/ar", ["en", "fr", "ar"])).toEqual({ path: "", search: "" });
    expect(unlocalizedPageUrl("//evil.example/x", ["en"])).toEqual({ path: "/x", search: "" });
    expect(unlocalizedPageUrl(null, ["en"])).toEqual({ path: "", search: "" });
  });
});

describe("OTP form input", () => {
  it("accepts what buyers type: spaces, dashes, Arabic-Indic and Persian digits", () => {
    expect(normalizeOtpCode(" 123 456 ")).toBe("123456");
    expect(normalizeOtpCode("123-456")).toBe("123456");
    expect(normalizeOtpCode("١٢٣٤٥٦")).toBe("123456");
    expect(normalizeOtpCode("۱۲۳۴۵۶")).toBe("123456");
    expect(otpCode.parse("١٢٣ ٤٥٦")).toBe("123456");
  });

  it("refuses, before the wallet sees it, a code that cannot be right (no attempt is spent)", () => {
    for (const code of ["", "12", "abcdef", "12345678901", "12 34 5x"]) {
      expect(otpCode.safeParse(code).success, code).toBe(false);
    }
  });

  it("refuses a form without a well-formed payment id, token or locale", () => {
    const valid = { paymentId, token: "t", locale: "en" };
    expect(hostedLinkForm.safeParse(valid).success).toBe(true);
    expect(hostedLinkForm.safeParse({ ...valid, paymentId: "1; drop table" }).success).toBe(false);
    expect(hostedLinkForm.safeParse({ ...valid, token: "" }).success).toBe(false);
    expect(hostedLinkForm.safeParse({ ...valid, locale: "de" }).success).toBe(false);
    expect(hostedLinkForm.parse({ ...valid, returnUrl: "" }).returnUrl).toBeUndefined();
  });

  it("builds the card provider's return_url on the public address, the complete step with the answered intent", () => {
    const link = { locale: "fr" as const, paymentId, token: "t0k" };
    expect(cardCompleteUrl(link)).toBe(`${getConfig().publicBaseUrl}/fr/pay/card/${paymentId}/complete?token=t0k`);
    expect(cardCompletePath({ ...link, paymentIntentId: "pi_1" })).toBe(
      `/fr/pay/card/${paymentId}/complete?token=t0k&payment_intent=pi_1`,
    );
    expect(providerReturnWithIntent(cardCompleteUrl(link), "pi_1")).toBe(
      `${cardCompleteUrl(link)}&payment_intent=pi_1`,
    );
  });

  it("links the sandbox 3DS page in the intent's language, or with no locale if the gateway does not serve it", () => {
    const base = getConfig().publicBaseUrl;
    expect(challengePageUrl({ locale: "ar", intentId: "pi_1", clientSecret: "pi_1_secret_x" })).toBe(
      `${base}/ar/card-provider-sandbox/challenge/pi_1?client_secret=pi_1_secret_x`,
    );
    expect(challengePageUrl({ locale: null, intentId: "pi_1", clientSecret: "s" })).toBe(
      `${base}/card-provider-sandbox/challenge/pi_1?client_secret=s`,
    );
    expect(challengePageUrl({ locale: "de", intentId: "pi_1", clientSecret: "s" })).toBe(
      `${base}/card-provider-sandbox/challenge/pi_1?client_secret=s`,
    );
  });
});
