import { describe, expect, it } from "vitest";
import { resolveReturnTarget, type ReturnTargetOptions } from "@/lib/hosted/resolve-return-target";

const paymentId = "3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12";
const service: ReturnTargetOptions = {
  paymentId,
  statusCode: 2,
  serviceRedirectUrl: "https://shop.example/checkout/done",
  allowedOrigins: ["https://pay.shop.example", "http://127.0.0.1:4321"],
};

function query(target: string | null) {
  expect(target).not.toBeNull();
  const url = new URL(target!);
  return { where: `${url.origin}${url.pathname}`, params: Object.fromEntries(url.searchParams) };
}

describe("resolveReturnTarget (contract 8)", () => {
  it("sends the buyer to the merchant's returnUrl on the redirect URL's origin, with paymentId and statusCode", () => {
    const target = resolveReturnTarget({ ...service, returnUrl: "https://shop.example/orders/42?lang=fr" });
    expect(query(target)).toEqual({
      where: "https://shop.example/orders/42",
      params: { lang: "fr", paymentId, statusCode: "2" },
    });
  });

  it("accepts a returnUrl on an allow-listed origin", () => {
    expect(query(resolveReturnTarget({ ...service, returnUrl: "https://pay.shop.example/back" })).where).toBe(
      "https://pay.shop.example/back",
    );
    expect(query(resolveReturnTarget({ ...service, returnUrl: "http://127.0.0.1:4321/r" })).where).toBe(
      "http://127.0.0.1:4321/r",
    );
  });

  it("ignores a returnUrl on any other origin and falls back to the service's redirect URL (no open redirect)", () => {
    for (const returnUrl of [
      "https://evil.example/phish",
      "https://shop.example.evil.example/x",
      "http://shop.example/checkout/done", // other scheme, other origin
      "https://shop.example:8443/x", // other port, other origin
      "//evil.example/x",
      "/relative/path",
      "javascript:alert(1)",
      "data:text/html,<script>alert(1)</script>",
      "https://shop.example@evil.example/x",
      "not a url",
    ]) {
      expect(query(resolveReturnTarget({ ...service, returnUrl })).where, returnUrl).toBe(
        "https://shop.example/checkout/done",
      );
    }
  });

  it("refuses credentials in a target even on a trusted origin", () => {
    const target = resolveReturnTarget({ ...service, returnUrl: "https://user:pass@shop.example/x" });
    expect(query(target).where).toBe("https://shop.example/checkout/done");
  });

  it("uses the card flow's redirectUrl under the same rule", () => {
    expect(query(resolveReturnTarget({ ...service, redirectUrl: "https://shop.example/card-done" })).where).toBe(
      "https://shop.example/card-done",
    );
    expect(query(resolveReturnTarget({ ...service, redirectUrl: "https://evil.example/" })).where).toBe(
      "https://shop.example/checkout/done",
    );
  });

  it("falls back to the service's redirect URL when the merchant gave no target", () => {
    expect(query(resolveReturnTarget(service))).toEqual({
      where: "https://shop.example/checkout/done",
      params: { paymentId, statusCode: "2" },
    });
  });

  it("returns null (the page stays) with no target at all", () => {
    expect(resolveReturnTarget({ paymentId, statusCode: 3, allowedOrigins: [] })).toBeNull();
    expect(
      resolveReturnTarget({ paymentId, statusCode: 3, allowedOrigins: [], returnUrl: "https://any.example/" }),
    ).toBeNull();
  });

  it("trusts an allow-listed origin even when the service has no redirect URL", () => {
    const target = resolveReturnTarget({
      paymentId,
      statusCode: 13,
      allowedOrigins: ["https://shop.example"],
      returnUrl: "https://shop.example/r",
    });
    expect(query(target)).toEqual({ where: "https://shop.example/r", params: { paymentId, statusCode: "13" } });
  });

  it("overwrites a paymentId or statusCode the merchant's URL already carried", () => {
    const target = resolveReturnTarget({
      ...service,
      statusCode: 3,
      returnUrl: "https://shop.example/r?statusCode=2&paymentId=x",
    });
    expect(query(target).params).toEqual({ paymentId, statusCode: "3" });
  });

  it("keeps the returnUrl's fragment after the query", () => {
    expect(resolveReturnTarget({ ...service, returnUrl: "https://shop.example/r#done" })).toBe(
      `https://shop.example/r?paymentId=${paymentId}&statusCode=2#done`,
    );
  });
});
