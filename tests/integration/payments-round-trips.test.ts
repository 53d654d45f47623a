import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onQuery } from "@/lib/db/client";
import { installWalletTransport } from "@/lib/wallet-connection/wallet-connection";
import { userAuth } from "../support/api";
import { createCustomerToken, createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  browserHeaders,
  check,
  createIntent,
  intentBody,
  payWithOtp,
  postIntent,
  proceed,
  refund,
  serverHeaders,
} from "../support/payments";

// Counts the statements the gateway sends to the database server (BEGIN and COMMIT included)
// while one request runs; the numbers are meant for PostgreSQL (DATABASE_URL) and hold on
// PGlite too. The sandbox wallet answers in this process on the same database, but it stands
// for a service of its own: statements made while a wallet call is under way are its own.
const { api } = useTestGateway();
let walletCallsUnderWay = 0;
beforeAll(() =>
  installWalletTransport(async (request, next) => {
    walletCallsUnderWay += 1;
    try {
      return await next(request);
    } finally {
      walletCallsUnderWay -= 1;
    }
  }),
);
afterAll(() => installWalletTransport(null));

let walletStatements = 0;

async function statementsOf(run: () => Promise<{ status: number }>, expectedStatus = 200) {
  let count = 0;
  walletStatements = 0;
  const stop = onQuery(() => {
    if (walletCallsUnderWay === 0) count += 1;
    else walletStatements += 1;
  });
  try {
    const response = await run();
    expect(response.status).toBe(expectedStatus);
  } finally {
    stop();
  }
  return count;
}

describe("SQL round trips of the hot paths", () => {
  it("checks in 1 statement (auth included) in every mode, whatever the payment's history", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const intent = await createIntent(api, merchant, { userId: customer.phone, amount: 100 });
    await check(api, intent.paymentId, serverHeaders(merchant)); // warm: gateway key, prepared statements
    // The auth statement reads the payment too.
    const modes = [
      serverHeaders(merchant),
      browserHeaders(merchant, intent.clientSecret),
      userAuth(merchant, accessToken, { "x-platform": "WEB" }),
    ];
    for (const headers of modes) {
      expect(await statementsOf(() => check(api, intent.paymentId, headers))).toBe(1);
    }
    await payWithOtp(api, merchant, intent.paymentId);
    for (let part = 0; part < 5; part += 1) {
      await refund(api, merchant, intent.paymentId, { description: `part ${part}`, amount: 10 });
    }
    for (const headers of modes) {
      expect(await statementsOf(() => check(api, intent.paymentId, headers))).toBe(1);
    }
  });

  it("creates an intent in 1 statement (auth included), new customer or not, and on an idempotent repeat", async () => {
    const merchant = await createMerchant();
    await createIntent(api, merchant); // warm
    const body = intentBody();
    expect(await statementsOf(() => postIntent(api, merchant, body), 201)).toBe(1);
    expect(await statementsOf(() => postIntent(api, merchant, body), 201)).toBe(1);
    expect(await statementsOf(() => postIntent(api, merchant, intentBody({ userId: body.userId })), 201)).toBe(1);
  });

  it("proceeds in a fixed, small number of statements", async () => {
    const merchant = await createMerchant();
    const { accessToken, customer } = await createCustomerToken(merchant);
    const warm = await createIntent(api, merchant);
    await proceed(api, warm.paymentId, serverHeaders(merchant));
    const counts: number[] = [];
    const walletCounts: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const otp = await createIntent(api, merchant);
      counts.push(await statementsOf(() => proceed(api, otp.paymentId, serverHeaders(merchant))));
      walletCounts.push(walletStatements);
    }
    expect(new Set(counts).size).toBe(1);
    // Auth, the payment with its method's catalog answer, then BEGIN, lock, update, COMMIT.
    expect(counts[0]).toBeLessThanOrEqual(6);
    // The sandbox wallet: the balance, then the challenge opened in one statement (no transaction).
    expect(walletCounts).toEqual([2, 2, 2]);
    // The owner's own proceed charges the wallet through the provider-operation boundary: the
    // charge is recorded in one transaction and settled in a second (lib/provider-operations),
    // and the payment is read once before them, to tell a QR intent (which the wallet must open
    // first, outside any transaction) from a direct charge.
    const direct = await createIntent(api, merchant, { userId: customer.phone, amount: 1 });
    expect(
      await statementsOf(() =>
        proceed(api, direct.paymentId, userAuth(merchant, accessToken, { "x-platform": "WEB" })),
      ),
    ).toBeLessThanOrEqual(18);
  });
});
