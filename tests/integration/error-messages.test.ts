import { randomUUID } from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { basicBearer } from "@/lib/auth/detect-credential";
import { clientAuth } from "../support/api";
import { createMerchant } from "../support/factories";
import { createIntent, intentBody, postIntent } from "../support/payments";
import { ROUTE_TABLE } from "../support/security/route-table";
import { useTestGateway } from "../support/test-gateway";

const logged = vi.hoisted(() => ({ lines: [] as string[] }));
vi.mock("@/lib/log", async (importOriginal) =>
  (await import("../support/memory-log")).memoryLog(importOriginal, logged.lines, "info"),
);

const { api } = useTestGateway();
const CLIENT_AUTH_FORMAT = "client_auth (Authorization: Bearer <base64 of clientId:clientSecret>)";

async function amountDetails(amount: unknown, currency = "DZD", country = "DZA") {
  const merchant = await createMerchant();
  const response = await postIntent(
    api,
    merchant,
    intentBody({ amount: amount as number, actionCurrencyCode: currency, actionCountryCode: country }),
    country,
  );
  expect(response.status).toBe(400);
  return response.body.error.details;
}

describe("401 messages name the expected scheme and format, never whether a credential exists", () => {
  it("tells a Basic scheme to use Bearer with the base64 pair", async () => {
    const merchant = await createMerchant();
    const basic = `Basic ${Buffer.from(`${merchant.clientId}:${merchant.clientSecret}`).toString("base64")}`;
    const response = await api.post("/api/v1/payments/intents?countryCode=DZA", intentBody(), { authorization: basic });
    expect(response.status).toBe(401);
    expect(response.body.error.name).toBe("invalid_credentials");
    expect(response.body.message).toBe(
      `The Authorization header uses the Basic scheme; use Bearer. This endpoint expects ${CLIENT_AUTH_FORMAT}.`,
    );
  });

  it("tells an unencoded clientId:clientSecret to base64-encode the pair", async () => {
    const merchant = await createMerchant();
    const response = await api.get("/api/v1/events", {
      authorization: `Bearer ${merchant.clientId}:${merchant.clientSecret}`,
    });
    expect(response.status).toBe(401);
    expect(response.body.message).toMatch(
      /^The Bearer credential must be the base64 encoding of clientId:clientSecret, not the pair itself\./,
    );
  });

  it("names the mode the endpoint expects when a credential of another mode is sent", async () => {
    const merchant = await createMerchant();
    const intent = await createIntent(api, merchant);
    const response = await api.post("/api/v1/payments/intents?countryCode=DZA", intentBody(), {
      authorization: `Bearer ${merchant.publishableKey}`,
      "x-client-secret": intent.clientSecret,
    });
    expect(response.status).toBe(401);
    expect(response.body.message).toBe(
      `This endpoint expects ${CLIENT_AUTH_FORMAT}; the request carries a merchant_auth credential.`,
    );
  });

  it("says no credentials were sent, and what to send", async () => {
    const response = await api.get("/api/v1/events");
    expect(response.body.message).toBe(`No credentials were sent. This endpoint expects ${CLIENT_AUTH_FORMAT}.`);
  });

  it("answers a wrong x-service, a wrong secret, an unknown client id with x-service with one message", async () => {
    const [merchant, other] = [await createMerchant(), await createMerchant()];
    const path = "/api/v1/payment-methods/available?countryCode=DZA";
    const headers = { "x-platform": "API", "x-country-code": "DZA" };
    const wrongService = await api.get(path, { ...clientAuth(merchant), ...headers, "x-service": other.service });
    const wrongSecret = await api.get(path, {
      authorization: basicBearer(merchant.clientId, "x".repeat(43)),
      ...headers,
      "x-service": merchant.service,
    });
    const unknown = await api.get(path, {
      authorization: basicBearer(merchant.clientId.replace(/\.[^.]+$/, ".01ARZ3NDEKTSV4RRFFQ69G5FAV"), "y".repeat(43)),
      ...headers,
      "x-service": merchant.service,
    });
    const messages = [wrongService, wrongSecret, unknown].map((response) => [response.status, response.body.message]);
    expect(new Set(messages.map(String)).size).toBe(1);
    expect(messages[0]).toEqual([
      401,
      "Invalid credentials, or an x-service header that is not the service code of these credentials.",
    ]);
    // Without x-service: the generic message, for a wrong secret and an unknown client id alike.
    const bare = await api.get("/api/v1/events", { authorization: basicBearer(merchant.clientId, "x".repeat(43)) });
    expect(bare.body.message).toBe("Invalid or missing credentials.");
  });
});

describe("one message per failing rule, in our own words", () => {
  it("amount 0: one message", async () => {
    expect(await amountDetails(0)).toEqual([{ path: "amount", message: "must be greater than zero" }]);
  });

  it("amount -5: only that it must be greater than zero", async () => {
    expect(await amountDetails(-5)).toEqual([{ path: "amount", message: "must be greater than zero" }]);
  });

  it("TND 10.1255: one message about decimals", async () => {
    expect(await amountDetails(10.1255, "TND", "TUN")).toEqual([
      { path: "amount", message: "must have at most 3 decimal places" },
    ]);
  });

  it("DZD 10.125: the currency's own decimals, once", async () => {
    expect(await amountDetails(10.125)).toEqual([
      { path: "amount", message: "must have at most 2 decimal places for DZD" },
    ]);
  });

  it("1e12: one message about the maximum", async () => {
    expect(await amountDetails(1e12)).toEqual([{ path: "amount", message: "must be at most 1000000000" }]);
  });

  it("a missing field is 'is required', a wrong type names the type", async () => {
    const merchant = await createMerchant();
    const response = await postIntent(api, merchant, {
      amount: "12",
      actionCurrencyCode: "DZD",
      actionCountryCode: "DZA",
      userId: "+213555123456",
    });
    expect(response.body.error.details).toEqual([
      { path: "actionId", message: "is required" },
      { path: "amount", message: "must be a number" },
    ]);
  });

  it("no route answers zod's own wording to an empty or mistyped body or query", async () => {
    const merchant = await createMerchant();
    const seen: string[] = [];
    for (const [key, spec] of Object.entries(ROUTE_TABLE)) {
      if (!spec.schemas || !spec.accepts.includes("client")) continue;
      const [method, pattern] = key.split(" ") as [string, string];
      if (pattern.includes(":")) continue;
      for (const body of [{}, { amount: "x", name: 5, phone: [], outcome: 1, advanceSeconds: "1" }, []]) {
        const response = await api.call(method, `${pattern}?limit=abc&countryCode=1`, {
          body: method === "GET" ? undefined : body,
          headers: { ...clientAuth(merchant), "x-platform": "?", "x-service": merchant.service },
        });
        seen.push(JSON.stringify(response.body));
      }
    }
    expect(seen.length).toBeGreaterThan(10);
    for (const text of seen) {
      expect(text).not.toMatch(/Invalid input|expected \w+, received|Too small|Too big|Invalid option/);
    }
  });
});

describe("log lines", () => {
  it("a 4xx access log line carries the error name, and an unknown path or wrong method is logged too", async () => {
    // Not a timestamp: one in ten 13-digit numbers passes Luhn, and the log scrub rightly hides
    // anything that could be a card number, the marker with it (a one-in-ten flake in CI).
    const marker = `log-${randomUUID()}`;
    await api.get("/api/v1/events", { "x-request-id": `${marker}-a` });
    await api.get("/api/v1/payments/intents", { "x-request-id": `${marker}-b` });
    await api.get("/api/v1/nothing-here", { "x-request-id": `${marker}-c` });
    const find = (id: string) =>
      logged.lines.find((line) => line.includes(`"requestId":"${id}"`) && line.includes('"msg":"request"'));
    // The access line is written as the answer leaves; on a loaded machine it may trail the client's read.
    await vi.waitFor(() => expect(["a", "b", "c"].every((suffix) => find(`${marker}-${suffix}`))).toBe(true), {
      timeout: 5_000,
    });
    const lineOf = (id: string) => JSON.parse(find(id)!);
    expect(lineOf(`${marker}-a`)).toMatchObject({ status: 401, error: "invalid_credentials", path: "/api/v1/events" });
    expect(lineOf(`${marker}-b`)).toMatchObject({ status: 405, error: "method_not_allowed" });
    expect(lineOf(`${marker}-c`)).toMatchObject({ status: 404, error: "not_found" });
  });
});
