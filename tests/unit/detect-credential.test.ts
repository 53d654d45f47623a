import fc from "fast-check";
import { ulid } from "ulid";
import { describe, expect, it } from "vitest";
import { basicBearer, detectCredential } from "@/lib/auth/detect-credential";

const detect = (headers: Record<string, string>) => detectCredential(new Headers(headers));
const base64 = (text: string) => Buffer.from(text).toString("base64");
const clientId = `acme.acme-shop.${ulid()}`;
const clientSecret = "q3Zk8c1Yt0bN6sVw2xJr9uHf4LmPa7Ed5gKi_oTn-Qs";
const paymentSecret = `pa_3b0c1f7e-2a4d-4c8e-9f10-0a1b2c3d4e5f_secret_${"c".repeat(64)}`;

describe("detectCredential", () => {
  it("finds nothing when no credential is sent", () => {
    expect(detect({})).toBeNull();
    expect(detect({ "x-service": "acme" })).toBeNull();
  });

  it("reads client_auth from Bearer base64(client_id:client_secret)", () => {
    expect(detect({ authorization: basicBearer(clientId, clientSecret) })).toEqual({
      mode: "client",
      clientId,
      clientSecret,
    });
  });

  it("accepts base64url and unpadded base64, and a lower-case scheme", () => {
    const raw = Buffer.from(`${clientId}:${clientSecret}`);
    for (const encoded of [raw.toString("base64url"), raw.toString("base64").replace(/=+$/, "")]) {
      expect(detect({ authorization: `bearer ${encoded}` })).toMatchObject({ mode: "client", clientId, clientSecret });
    }
  });

  it("splits at the first colon, so a secret may itself contain one", () => {
    expect(detect({ authorization: `Bearer ${base64(`${clientId}:a:b`)}` })).toMatchObject({ clientSecret: "a:b" });
  });

  it("round-trips any well-formed client id and base64url secret", () => {
    const code = fc.stringMatching(/^[a-z0-9][a-z0-9-]{0,62}$/);
    const ulidLike = fc.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    const secret = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);
    fc.assert(
      fc.property(code, code, ulidLike, secret, (tenant, service, id, value) => {
        const credential = detect({ authorization: basicBearer(`${tenant}.${service}.${id}`, value) });
        expect(credential).toEqual({ mode: "client", clientId: `${tenant}.${service}.${id}`, clientSecret: value });
      }),
    );
  });

  it("refuses a client id of the wrong shape", () => {
    for (const id of [
      "acme.shop",
      "acme.shop.notaulid",
      `ACME.shop.${ulid()}`,
      `acme.shop.${ulid()}.extra`,
      `acme..${ulid()}`,
      `-acme.shop.${ulid()}`,
      `acme.shop.${ulid().slice(0, 25)}U`,
      "",
    ]) {
      expect(detect({ authorization: `Bearer ${base64(`${id}:${clientSecret}`)}` }), id).toBeNull();
    }
  });

  it("refuses a bearer that is not base64 or has no colon", () => {
    const tokens = ["not base64!", "abc=def", "a==b", "%%%", "====", base64(clientId), base64(`:${clientSecret}`)];
    for (const token of tokens) {
      expect(detect({ authorization: `Bearer ${token}` }), token).toBeNull();
    }
  });

  it("refuses a malformed Authorization header", () => {
    const basic = `Basic ${base64(`${clientId}:${clientSecret}`)}`;
    for (const value of ["Bearer", "Bearer ", "Bearer a b", basic, "Token x", "garbage"]) {
      expect(detect({ authorization: value }), value).toBeNull();
    }
  });

  it("reads merchant_auth from a publishable key plus x-client-secret", () => {
    expect(detect({ authorization: "Bearer pk_service_abc", "x-client-secret": paymentSecret })).toEqual({
      mode: "merchant",
      publishableKey: "pk_service_abc",
      clientSecret: paymentSecret,
    });
  });

  it("still calls a lone publishable key merchant_auth, with no secret, so authenticate can refuse it", () => {
    expect(detect({ authorization: "Bearer pk_service_abc" })).toEqual({
      mode: "merchant",
      publishableKey: "pk_service_abc",
      clientSecret: null,
    });
  });

  it("reads a lone x-client-secret as the intent-secret credential of card finalize", () => {
    expect(detect({ "x-client-secret": ` ${paymentSecret} ` })).toEqual({
      mode: "intent_secret",
      clientSecret: paymentSecret,
    });
  });

  it("reads user_auth from x-client-token or a cat_ Bearer token", () => {
    expect(detect({ "x-client-token": "cat_abc" })).toEqual({ mode: "user", accessToken: "cat_abc" });
    expect(detect({ authorization: "Bearer cat_abc" })).toEqual({ mode: "user", accessToken: "cat_abc" });
  });

  it("lets x-client-token decide when it is sent with another credential", () => {
    expect(detect({ "x-client-token": "cat_abc", authorization: basicBearer(clientId, clientSecret) })).toMatchObject({
      mode: "user",
    });
  });

  it("does not read a refresh token as a user credential of its own kind", () => {
    expect(detect({ authorization: "Bearer crt_abcdef" })).toBeNull();
  });
});
