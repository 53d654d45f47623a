import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { signWalletRequest, type WalletRequest } from "@/lib/providers/wallet/wallet-protocol";
import { walletProtocolServer, type WalletProtocolServer } from "@/simulators/wallet/serve-wallet-protocol";

/**
 * The in-gateway sandbox wallet answers its own gateway in process (`answer`, no WHATWG
 * Request or Response) and everyone else over HTTP (`handle`). Both faces must give the same
 * status and the same bytes for the same signed request, or the sandbox would test something
 * production never sees.
 */
const secret = `whsec_${Buffer.alloc(32, 9).toString("base64")}`;
const base = "http://wallet.test/api/wallet-sandbox";
let wallet: WalletProtocolServer;

beforeAll(async () => {
  wallet = walletProtocolServer({
    db: await getDb(),
    secret,
    basePath: "/api/wallet-sandbox",
    qrContent: ({ qrRequestId }) => `${base}/app/${qrRequestId}`,
  });
});

function signed(method: "GET" | "POST", path: string, body: unknown, signingSecret = secret): WalletRequest {
  const url = new URL(`${base}${path}`);
  const text = body === undefined ? "" : JSON.stringify(body);
  const headers: Record<string, string> = {
    ...signWalletRequest(signingSecret, { method, pathAndQuery: url.pathname + url.search, body: text }),
    accept: "application/json",
    ...(text ? { "content-type": "application/json" } : {}),
  };
  return { method, url: url.href, headers, body: text, signal: new AbortController().signal };
}

/** The same request through both faces: in process first, then as HTTP would carry it. */
async function bothFaces(request: WalletRequest) {
  const inProcess = await wallet.answer(request);
  const response = await wallet.handle(
    new Request(request.url, { method: request.method, headers: request.headers, body: request.body || undefined }),
  );
  return {
    inProcess,
    overHttp: { status: response.status, body: await response.text() },
    contentType: response.headers.get("content-type"),
  };
}

describe("the in-gateway wallet's two faces", () => {
  const account = { merchantId: randomUUID(), customerId: randomUUID() };

  it("answer a balance query alike", async () => {
    const { inProcess, overHttp, contentType } = await bothFaces(
      signed("GET", `/v1/balances?${new URLSearchParams({ ...account, currency: "DZD" })}`, undefined),
    );
    expect(inProcess.status).toBe(200);
    expect(JSON.parse(inProcess.body)).toMatchObject({ currency: "DZD", heldMinor: 0 });
    expect(overHttp).toEqual(inProcess);
    expect(contentType).toBe("application/json");
  });

  it("open one OTP challenge for a payment, then answer its repeat with the same challenge", async () => {
    const start = { paymentId: randomUUID(), account, currency: "DZD", amountMinor: 150_050, merchantName: "Shop" };
    const first = await wallet.answer(signed("POST", "/v1/otp-challenges", start));
    expect(first.status).toBe(201);
    const { inProcess, overHttp } = await bothFaces(signed("POST", "/v1/otp-challenges", start));
    expect(inProcess.status).toBe(200);
    expect(JSON.parse(inProcess.body)).toEqual(JSON.parse(first.body));
    expect(overHttp).toEqual(inProcess);
  });

  it("refuse a request signed with another secret, an unknown path and a wrong method alike", async () => {
    const forged = await bothFaces(
      signed(
        "GET",
        `/v1/balances?${new URLSearchParams({ ...account, currency: "DZD" })}`,
        undefined,
        `whsec_${Buffer.alloc(32, 1).toString("base64")}`,
      ),
    );
    expect(forged.inProcess.status).toBe(401);
    expect(JSON.parse(forged.inProcess.body).error.name).toBe("invalid_signature");
    expect(forged.overHttp).toEqual(forged.inProcess);

    const unknown = await bothFaces(signed("GET", "/v1/nothing-here", undefined));
    expect(unknown.inProcess.status).toBe(404);
    expect(unknown.overHttp).toEqual(unknown.inProcess);

    const wrongMethod = await bothFaces(signed("GET", "/v1/debits", undefined));
    expect(wrongMethod.inProcess.status).toBe(405);
    expect(wrongMethod.overHttp).toEqual(wrongMethod.inProcess);
  });

  it("read header names in any case, and no body on a GET, in process as over HTTP", async () => {
    const request = signed("GET", `/v1/balances?${new URLSearchParams({ ...account, currency: "DZD" })}`, undefined);
    const upperCased = Object.fromEntries(
      Object.entries(request.headers).map(([name, value]) => [name.toUpperCase(), value]),
    );
    const inProcess = await wallet.answer({ ...request, headers: upperCased, body: "{not json" });
    expect(inProcess.status).toBe(200);
    expect(inProcess).toEqual((await bothFaces(request)).overHttp);
  });

  it("answer a body that is not JSON with invalid_request, in process as over HTTP", async () => {
    const request = signed("POST", "/v1/otp-challenges", undefined);
    const url = new URL(request.url);
    const body = "{not json";
    const headers = {
      ...signWalletRequest(secret, { method: "POST", pathAndQuery: url.pathname, body }),
      "content-type": "application/json",
    };
    const { inProcess, overHttp } = await bothFaces({ ...request, headers, body });
    expect(inProcess.status).toBe(400);
    expect(JSON.parse(inProcess.body).error.name).toBe("invalid_request");
    expect(overHttp).toEqual(inProcess);
  });
});
