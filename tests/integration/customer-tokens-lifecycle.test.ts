import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authenticate } from "@/lib/auth/authenticate";
import { getDb } from "@/lib/db/client";
import { services } from "@/lib/db/schema";
import { clientAuth, userAuth, type ApiResponse } from "../support/api";
import { findStoredPlaintext } from "../support/database-scan";
import { createMerchant, randomPhone } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";

const { api } = useTestGateway();

type Merchant = Awaited<ReturnType<typeof createMerchant>>;
interface Pair {
  accessToken: string;
  refreshToken: string;
  accessTokenExpiresIn: number;
  refreshTokenExpiresIn: number;
}

const ACCESS_SECONDS = 15 * 60;
const REFRESH_SECONDS = 30 * 24 * 60 * 60;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

// Every credential this file obtains; the last test proves none is stored in plaintext.
const obtainedSecrets: string[] = [];

async function merchant(): Promise<Merchant> {
  const created = await createMerchant();
  obtainedSecrets.push(created.clientSecret);
  return created;
}

async function customerOf(owner: Merchant, fields: Record<string, unknown> = {}): Promise<string> {
  const body = { name: "Yacine", phone: randomPhone(), ...fields };
  const response = await api.post("/api/v1/customers", body, clientAuth(owner));
  expect(response.status).toBe(201);
  return response.body.data.id;
}

function generate(owner: Merchant, customerId: unknown) {
  return api.post<{ data: Pair; message: string }>("/api/v1/customer-access-token", { customerId }, clientAuth(owner));
}

async function pairFor(owner: Merchant, customerId: string): Promise<Pair> {
  const response = await generate(owner, customerId);
  expect(response.status).toBe(201);
  remember(response.body.data);
  return response.body.data;
}

function refresh(owner: Merchant, pair: Pick<Pair, "accessToken" | "refreshToken">) {
  return api.post<{ data: Pair }>(
    "/api/v1/customer-access-token/refresh",
    { refreshToken: pair.refreshToken, accessToken: pair.accessToken },
    clientAuth(owner),
  );
}

function revoke(owner: Merchant, accessToken: string) {
  return api.delete("/api/v1/customer-access-token/revoke", { accessToken }, clientAuth(owner));
}

function remember(pair: Pair) {
  obtainedSecrets.push(pair.accessToken, pair.refreshToken);
}

/**
 * Whether the access token is accepted as user_auth, asked of the same authenticate() every
 * user_auth endpoint runs (none of the customer endpoints accepts user_auth).
 */
async function accessWorks(owner: Merchant, accessToken: string): Promise<boolean> {
  const request = new Request("http://gateway.test/api/v1/cards", { headers: userAuth(owner, accessToken) });
  try {
    const principal = await authenticate(await getDb(), request, { modes: ["user"] });
    return principal.mode === "user";
  } catch {
    return false;
  }
}

/** The sandbox clock: moves this merchant's service time forward, as POST /sandbox/clock does. */
async function advanceClock(owner: Merchant, seconds: number) {
  const db = await getDb();
  const [service] = await db.select().from(services).where(eq(services.code, owner.service));
  await db
    .update(services)
    .set({ clockOffsetSeconds: service!.clockOffsetSeconds + seconds })
    .where(eq(services.code, owner.service));
}

function expectInvalidCredentials(response: ApiResponse) {
  expect(response.status).toBe(401);
  expect(response.body).toMatchObject({ code: 401, status: "error", error: { name: "invalid_credentials" } });
}

function expectNotFound(response: ApiResponse) {
  expect(response.status).toBe(404);
  expect(response.body).toMatchObject({ code: 404, status: "error", error: { name: "not_found" } });
}

function withoutRequestId(response: ApiResponse) {
  const { error, ...rest } = response.body;
  const { requestId: _requestId, ...errorRest } = error ?? {};
  return { httpStatus: response.status, ...rest, error: errorRest };
}

describe("POST /api/v1/customer-access-token", () => {
  it("answers 201 with a token pair: cat_ access token for 15 minutes, crt_ refresh token for 30 days", async () => {
    const owner = await merchant();
    const response = await generate(owner, await customerOf(owner));
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ code: 201, status: "success" });
    expect(typeof response.body.message).toBe("string");
    const pair = response.body.data;
    remember(pair);
    expect(Object.keys(pair).sort()).toEqual([
      "accessToken",
      "accessTokenExpiresIn",
      "refreshToken",
      "refreshTokenExpiresIn",
    ]);
    expect(pair.accessToken.startsWith("cat_") && TOKEN.test(pair.accessToken.slice(4))).toBe(true);
    expect(pair.refreshToken.startsWith("crt_") && TOKEN.test(pair.refreshToken.slice(4))).toBe(true);
    expect(pair.accessTokenExpiresIn).toBe(ACCESS_SECONDS);
    expect(pair.refreshTokenExpiresIn).toBe(REFRESH_SECONDS);
  });

  it("mints an access token that signs the customer in under user_auth, as x-client-token or Bearer", async () => {
    const owner = await merchant();
    const customerId = await customerOf(owner);
    const pair = await pairFor(owner, customerId);
    const db = await getDb();
    const viaHeader = await authenticate(
      db,
      new Request("http://gateway.test/", { headers: userAuth(owner, pair.accessToken) }),
      { modes: ["user"] },
    );
    const viaBearer = await authenticate(
      db,
      new Request("http://gateway.test/", { headers: { authorization: `Bearer ${pair.accessToken}` } }),
      { modes: ["user"] },
    );
    for (const principal of [viaHeader, viaBearer]) {
      expect(principal).toMatchObject({ mode: "user", customerId, service: { code: owner.service } });
    }
  });

  it("does not accept a refresh token as an access token", async () => {
    const owner = await merchant();
    const pair = await pairFor(owner, await customerOf(owner));
    expect(await accessWorks(owner, pair.refreshToken)).toBe(false);
  });

  it("mints a new, distinct pair on every call", async () => {
    const owner = await merchant();
    const customerId = await customerOf(owner);
    const first = await pairFor(owner, customerId);
    const second = await pairFor(owner, customerId);
    expect(second.accessToken).not.toBe(first.accessToken);
    expect(second.refreshToken).not.toBe(first.refreshToken);
    expect(await accessWorks(owner, first.accessToken)).toBe(true);
    expect(await accessWorks(owner, second.accessToken)).toBe(true);
  });

  it("answers the same 404 for an unknown, malformed, another merchant's or an inactive customer", async () => {
    const owner = await merchant();
    const other = await merchant();
    const inactive = await customerOf(owner, { isActive: false });
    const foreign = await customerOf(other);
    const unknown = await generate(owner, randomUUID());
    expectNotFound(unknown);
    for (const customerId of ["not-a-uuid", foreign, inactive]) {
      const response = await generate(owner, customerId);
      expect(withoutRequestId(response), customerId).toEqual(withoutRequestId(unknown));
    }
  });

  it("refuses a missing or non-string customerId with validation_error", async () => {
    const owner = await merchant();
    for (const body of [{}, { customerId: 42 }, { customerId: "" }]) {
      const response = await api.post("/api/v1/customer-access-token", body, clientAuth(owner));
      expect(response.status).toBe(400);
      expect(response.body.error).toMatchObject({ name: "validation_error", details: [{ path: "customerId" }] });
    }
  });
});

describe("POST /api/v1/customer-access-token/refresh", () => {
  it("answers a new pair; the new access token works and the old one stops at once", async () => {
    const owner = await merchant();
    const customerId = await customerOf(owner);
    const old = await pairFor(owner, customerId);
    const response = await refresh(owner, old);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      code: 200,
      status: "success",
      data: { accessTokenExpiresIn: ACCESS_SECONDS, refreshTokenExpiresIn: REFRESH_SECONDS },
    });
    const fresh = response.body.data;
    remember(fresh);
    expect(fresh.accessToken).toMatch(/^cat_/);
    expect(fresh.refreshToken).toMatch(/^crt_/);
    expect(fresh.accessToken).not.toBe(old.accessToken);
    expect(fresh.refreshToken).not.toBe(old.refreshToken);
    expect(await accessWorks(owner, fresh.accessToken)).toBe(true);
    expect(await accessWorks(owner, old.accessToken)).toBe(false);
  });

  it("keeps rotating: each new pair can be refreshed in turn", async () => {
    const owner = await merchant();
    let pair = await pairFor(owner, await customerOf(owner));
    for (let round = 0; round < 3; round += 1) {
      const response = await refresh(owner, pair);
      expect(response.status).toBe(200);
      pair = response.body.data;
      remember(pair);
    }
    expect(await accessWorks(owner, pair.accessToken)).toBe(true);
  });

  it("treats a rotated refresh token presented again as reuse: 401 and the whole family stops working", async () => {
    const owner = await merchant();
    const first = await pairFor(owner, await customerOf(owner));
    const second = (await refresh(owner, first)).body.data;
    const third = (await refresh(owner, second)).body.data;
    [second, third].forEach(remember);
    expect(await accessWorks(owner, third.accessToken)).toBe(true);

    expectInvalidCredentials(await refresh(owner, first));

    expect(await accessWorks(owner, third.accessToken)).toBe(false);
    expectInvalidCredentials(await refresh(owner, third));
    expectInvalidCredentials(await refresh(owner, second));
  });

  it("leaves other sessions of the same customer alone when one family is revoked for reuse", async () => {
    const owner = await merchant();
    const customerId = await customerOf(owner);
    const victim = await pairFor(owner, customerId);
    const bystander = await pairFor(owner, customerId);
    remember((await refresh(owner, victim)).body.data);
    expectInvalidCredentials(await refresh(owner, victim));
    expect(await accessWorks(owner, bystander.accessToken)).toBe(true);
    expect((await refresh(owner, bystander)).status).toBe(200);
  });

  it("lets exactly one of several parallel refreshes with one refresh token win, then revokes the family", async () => {
    const owner = await merchant();
    const pair = await pairFor(owner, await customerOf(owner));
    const responses = await Promise.all(Array.from({ length: 5 }, () => refresh(owner, pair)));
    const winners = responses.filter((response) => response.status === 200);
    expect(winners).toHaveLength(1);
    for (const loser of responses.filter((response) => response.status !== 200)) expectInvalidCredentials(loser);
    const winning = winners[0]!.body.data;
    remember(winning);
    // A racing refresh cannot be told from a replayed stolen token: the family ends.
    expect(await accessWorks(owner, winning.accessToken)).toBe(false);
    expectInvalidCredentials(await refresh(owner, winning));
  });

  it("refuses a pair that does not belong together, without revoking the genuine pair", async () => {
    const owner = await merchant();
    const customerId = await customerOf(owner);
    const mine = await pairFor(owner, customerId);
    const other = await pairFor(owner, customerId);
    expectInvalidCredentials(await refresh(owner, { refreshToken: mine.refreshToken, accessToken: other.accessToken }));
    expect(await accessWorks(owner, mine.accessToken)).toBe(true);
    expect((await refresh(owner, mine)).status).toBe(200);
  });

  it("refuses another merchant's pair, which keeps working for its own merchant", async () => {
    const owner = await merchant();
    const intruder = await merchant();
    const pair = await pairFor(owner, await customerOf(owner));
    const rotated = (await refresh(owner, pair)).body.data;
    remember(rotated);
    // Neither the current pair nor a rotated one lets another merchant act on the family.
    expectInvalidCredentials(await refresh(intruder, rotated));
    expectInvalidCredentials(await refresh(intruder, pair));
    expect(await accessWorks(owner, rotated.accessToken)).toBe(true);
    expect((await refresh(owner, rotated)).status).toBe(200);
  });

  it("refuses tokens that were never issued", async () => {
    const owner = await merchant();
    expectInvalidCredentials(await refresh(owner, { refreshToken: "crt_nothing", accessToken: "cat_nothing" }));
    expectInvalidCredentials(await refresh(owner, { refreshToken: "garbage", accessToken: "garbage" }));
  });

  it("lists both missing fields in validation_error details", async () => {
    const owner = await merchant();
    const response = await api.post("/api/v1/customer-access-token/refresh", {}, clientAuth(owner));
    expect(response.status).toBe(400);
    expect(response.body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual([
      "accessToken",
      "refreshToken",
    ]);
  });

  it("lets the access token lapse after 15 minutes of service time while the refresh token still works", async () => {
    const owner = await merchant();
    const pair = await pairFor(owner, await customerOf(owner));
    await advanceClock(owner, ACCESS_SECONDS - 5);
    expect(await accessWorks(owner, pair.accessToken)).toBe(true);
    await advanceClock(owner, 10);
    expect(await accessWorks(owner, pair.accessToken)).toBe(false);
    const response = await refresh(owner, pair);
    expect(response.status).toBe(200);
    remember(response.body.data);
    expect(await accessWorks(owner, response.body.data.accessToken)).toBe(true);
  });

  it("refuses a refresh token older than 30 days of service time", async () => {
    const owner = await merchant();
    const pair = await pairFor(owner, await customerOf(owner));
    await advanceClock(owner, REFRESH_SECONDS + 5);
    expectInvalidCredentials(await refresh(owner, pair));
  });

  it("refuses to refresh for a deactivated customer, and reactivation does not revive the pair", async () => {
    const owner = await merchant();
    const customerId = await customerOf(owner);
    const pair = await pairFor(owner, customerId);
    await api.put(`/api/v1/customers/${customerId}`, { isActive: false }, clientAuth(owner));
    expect(await accessWorks(owner, pair.accessToken)).toBe(false);
    expectInvalidCredentials(await refresh(owner, pair));
    await api.put(`/api/v1/customers/${customerId}`, { isActive: true }, clientAuth(owner));
    expect(await accessWorks(owner, pair.accessToken)).toBe(false);
    expectInvalidCredentials(await refresh(owner, pair));
    expect((await generate(owner, customerId)).status).toBe(201);
  });
});

describe("DELETE /api/v1/customer-access-token/revoke", () => {
  it("answers 200 with data null, and the access token and its refresh token stop working at once", async () => {
    const owner = await merchant();
    const pair = await pairFor(owner, await customerOf(owner));
    const response = await revoke(owner, pair.accessToken);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ code: 200, status: "success", data: null });
    expect(typeof response.body.message).toBe("string");
    expect(await accessWorks(owner, pair.accessToken)).toBe(false);
    expectInvalidCredentials(await refresh(owner, pair));
  });

  it("ends only that session: the customer's other pairs keep working", async () => {
    const owner = await merchant();
    const customerId = await customerOf(owner);
    const ended = await pairFor(owner, customerId);
    const kept = await pairFor(owner, customerId);
    await revoke(owner, ended.accessToken);
    expect(await accessWorks(owner, kept.accessToken)).toBe(true);
  });

  it("still ends the session when the access token has already expired", async () => {
    const owner = await merchant();
    const pair = await pairFor(owner, await customerOf(owner));
    await advanceClock(owner, ACCESS_SECONDS + 5);
    expect((await revoke(owner, pair.accessToken)).status).toBe(200);
    expectInvalidCredentials(await refresh(owner, pair));
  });

  it("answers the same 200 for an unknown or already revoked token, so tokens cannot be probed", async () => {
    const owner = await merchant();
    const pair = await pairFor(owner, await customerOf(owner));
    const unknown = await revoke(owner, "cat_never-issued");
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toBeNull();
    await revoke(owner, pair.accessToken);
    const again = await revoke(owner, pair.accessToken);
    expect(withoutRequestId(again)).toEqual(withoutRequestId(unknown));
  });

  it("does not let merchant B revoke merchant A's token", async () => {
    const owner = await merchant();
    const intruder = await merchant();
    const pair = await pairFor(owner, await customerOf(owner));
    expect((await revoke(intruder, pair.accessToken)).status).toBe(200);
    expect(await accessWorks(owner, pair.accessToken)).toBe(true);
    expect((await refresh(owner, pair)).status).toBe(200);
  });

  it("leaves no working pair when a refresh races the revoke of the same pair", async () => {
    const owner = await merchant();
    const customerId = await customerOf(owner);
    // Which request wins varies from round to round; whichever does, the session ends.
    for (let round = 0; round < 15; round += 1) {
      const pair = await pairFor(owner, customerId);
      const [revoked, refreshed] = await Promise.all([revoke(owner, pair.accessToken), refresh(owner, pair)]);
      expect(revoked.status).toBe(200);
      expect(await accessWorks(owner, pair.accessToken)).toBe(false);
      if (refreshed.status !== 200) continue;
      remember(refreshed.body.data);
      expect(await accessWorks(owner, refreshed.body.data.accessToken), `round ${round}`).toBe(false);
      expectInvalidCredentials(await refresh(owner, refreshed.body.data));
    }
  });

  it("refuses a missing accessToken with validation_error", async () => {
    const owner = await merchant();
    const response = await api.delete("/api/v1/customer-access-token/revoke", {}, clientAuth(owner));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ name: "validation_error", details: [{ path: "accessToken" }] });
  });
});

describe("storage of credentials", () => {
  it("keeps no client secret, access or refresh token this suite obtained in plaintext in any table", async () => {
    expect(obtainedSecrets.length).toBeGreaterThan(50);
    expect(await findStoredPlaintext(obtainedSecrets)).toEqual([]);
  });
});
