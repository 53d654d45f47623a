import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { isSignedWalletRequest, signedPayload, signWalletRequest } from "@/lib/providers/wallet/wallet-protocol";

// The wallet protocol's signatures are Standard Webhooks' (docs/wallet-protocol.openapi.yaml):
// computed on node:crypto, they must stay the library's bytes, so a wallet verifying with the
// library accepts the gateway's requests and the gateway accepts the wallet's callbacks.
const secret = `whsec_${randomBytes(24).toString("base64")}`;
const call = {
  method: "POST",
  pathAndQuery: "/v1/otp-challenges?x=1",
  body: JSON.stringify({ paymentId: "p", amountMinor: 150_050 }),
};

describe("wallet request signatures are Standard Webhooks' bytes", () => {
  it("signs what the library verifies, and the library's signature the same bytes", () => {
    const headers = signWalletRequest(secret, call);
    const library = new Webhook(secret);
    expect(() =>
      library.verify(signedPayload(call.method, call.pathAndQuery, call.body), headers, { jsonParse: false }),
    ).not.toThrow();
    const seconds = Number(headers["webhook-timestamp"]);
    expect(
      library.sign(
        headers["webhook-id"]!,
        new Date(seconds * 1000),
        signedPayload(call.method, call.pathAndQuery, call.body),
      ),
    ).toBe(headers["webhook-signature"]);
  });

  it("accepts the library's signature among others; refuses another body, path, secret, a stale or future one", () => {
    const library = new Webhook(secret);
    const sign = (at: Date, payload = signedPayload(call.method, call.pathAndQuery, call.body), id = "msg_1") => ({
      "webhook-id": id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": library.sign(id, at, payload),
    });
    const check = (headers: Record<string, string>, request = call, key = secret) =>
      isSignedWalletRequest(key, { ...request, headers: new Headers(headers) });
    const now = new Date();
    expect(check(sign(now))).toBe(true);
    expect(check({ ...sign(now), "webhook-signature": `v2,abc v1,nope ${sign(now)["webhook-signature"]}` })).toBe(true);
    expect(check(sign(now), { ...call, body: `${call.body} ` })).toBe(false);
    expect(check(sign(now), { ...call, pathAndQuery: "/v1/debits" })).toBe(false);
    expect(check(sign(now), call, `whsec_${randomBytes(24).toString("base64")}`)).toBe(false);
    expect(check(sign(new Date(now.getTime() - 6 * 60_000)))).toBe(false);
    expect(check(sign(new Date(now.getTime() + 6 * 60_000)))).toBe(false);
    expect(check({ ...sign(now), "webhook-id": "msg_2" })).toBe(false);
    expect(check({ ...sign(now), "webhook-signature": "" })).toBe(false);
    expect(check(sign(now), call, "whsec_")).toBe(false);
  });
});
