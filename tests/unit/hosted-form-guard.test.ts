import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  acceptsPost,
  formTokenFor,
  isCrossSitePost,
  isHostedFormPath,
  isValidFormToken,
} from "@/lib/hosted/form-guard";
import { FORM_BODY_LIMIT_BYTES, NUL_CHARACTER_IN_FORM, readFormBody } from "@/lib/hosted/read-form-body";

const key = randomBytes(32);

describe("hosted form tokens", () => {
  it("accept the token of this page and this form only", () => {
    const token = formTokenFor(key, "otp", "page-token-a");
    expect(isValidFormToken(key, "otp", "page-token-a", token)).toBe(true);
    expect(isValidFormToken(key, "otp", "page-token-b", token)).toBe(false);
    expect(isValidFormToken(key, "wallet", "page-token-a", token)).toBe(false);
    expect(isValidFormToken(randomBytes(32), "otp", "page-token-a", token)).toBe(false);
    expect(isValidFormToken(key, "otp", "page-token-a", undefined)).toBe(false);
    expect(isValidFormToken(key, "otp", "page-token-a", "")).toBe(false);
  });

  it("refuse a post another site sent, whatever its Origin, and leave the rest to the token", () => {
    const post = (site?: string) => new Headers(site ? { "sec-fetch-site": site } : {});
    expect(isCrossSitePost(post("cross-site"))).toBe(true);
    expect(isCrossSitePost(post("same-site"))).toBe(true);
    expect(isCrossSitePost(post("same-origin"))).toBe(false);
    expect(isCrossSitePost(post("none"))).toBe(false);
    expect(isCrossSitePost(post())).toBe(false);
  });

  it("name the hosted forms' addresses and no page", () => {
    expect(isHostedFormPath("/fr/pay/otp/3f1c2a9e-5b7d-4c1e-9a2b-8d6e4f0a1b2c/confirm")).toBe(true);
    expect(isHostedFormPath("/en/pay/otp/x/resend")).toBe(true);
    expect(isHostedFormPath("/ar/card-provider-sandbox/challenge/pi_x/answer")).toBe(true);
    expect(isHostedFormPath("/en/sandbox/wallet/x/answer")).toBe(true);
    expect(isHostedFormPath("/en/pay/otp/x")).toBe(false);
    expect(isHostedFormPath("/pay/otp/x/confirm")).toBe(false);
    expect(isHostedFormPath("/en/pay/return/x/confirm")).toBe(false);
  });

  it("take a post at a redirect provider's return too (CMI posts the buyer back to okUrl), at no other page", () => {
    expect(acceptsPost("/ar/pay/redirect/3f1c2a9e-5b7d-4c1e-9a2b-8d6e4f0a1b2c/return")).toBe(true);
    expect(acceptsPost("/en/pay/redirect/x")).toBe(false);
    expect(acceptsPost("/en/pay/return/x")).toBe(false);
  });
});

describe("readFormBody", () => {
  const post = (body: BodyInit, type: string) =>
    new Request("http://gateway.test/en/pay/otp/x/confirm", {
      method: "POST",
      body,
      headers: { "content-type": type },
    });

  it("reads urlencoded and multipart forms, first value of a repeated field", async () => {
    expect(await readFormBody(post("code=123456&token=a&token=b", "application/x-www-form-urlencoded"))).toEqual({
      code: "123456",
      token: "a",
    });
    const form = new FormData();
    form.set("code", "123456");
    const multipart = new Request("http://gateway.test/x", { method: "POST", body: form });
    expect(await readFormBody(multipart)).toEqual({ code: "123456" });
  });

  it("answers null for an unreadable form: wrong type, bad UTF-8, broken multipart, oversized, a file", async () => {
    expect(await readFormBody(post("{}", "application/json"))).toBeNull();
    expect(
      await readFormBody(post(new Uint8Array([0x61, 0x3d, 0xff]), "application/x-www-form-urlencoded")),
    ).toBeNull();
    expect(
      await readFormBody(
        post('--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nx', "multipart/form-data; boundary=b"),
      ),
    ).toBeNull();
    expect(
      await readFormBody(post(`code=${"1".repeat(FORM_BODY_LIMIT_BYTES)}`, "application/x-www-form-urlencoded")),
    ).toBeNull();
    const withFile = new FormData();
    withFile.set("file", new Blob(["x"]), "x.txt");
    expect(await readFormBody(new Request("http://gateway.test/x", { method: "POST", body: withFile }))).toBeNull();
  });

  it("refuses a field holding U+0000, in its name or its value, urlencoded or multipart", async () => {
    expect(await readFormBody(post("code=12%003456", "application/x-www-form-urlencoded"))).toBe(NUL_CHARACTER_IN_FORM);
    expect(await readFormBody(post("co%00de=123456", "application/x-www-form-urlencoded"))).toBe(NUL_CHARACTER_IN_FORM);
    const form = new FormData();
    form.set("phone", "+213\u0000555");
    expect(await readFormBody(new Request("http://gateway.test/x", { method: "POST", body: form }))).toBe(
      NUL_CHARACTER_IN_FORM,
    );
  });
});
