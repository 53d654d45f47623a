import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll } from "vitest";
import { getDb } from "@/lib/db/client";
import { openingBalanceMinor, SANDBOX_OTP_CODE } from "@/simulators/wallet/sandbox-wallet";
import { walletProtocolHandler } from "@/simulators/wallet/serve-wallet-protocol";
import { serveFetchHandler } from "@/lib/http/serve-fetch-on-node";
import { describeWalletConformance } from "./wallet-protocol";

/**
 * The conformance suite against the sandbox wallet served over HTTP on the test database.
 * Against another wallet: WALLET_CONFORMANCE_URL (base URL), WALLET_CONFORMANCE_SECRET
 * (whsec_...), WALLET_CONFORMANCE_ACCOUNTS (a JSON array of funded test accounts
 * `{merchantId, customerId, phone}`, one per test that needs one: 12), WALLET_CONFORMANCE_CURRENCY,
 * WALLET_CONFORMANCE_FUNDS_MINOR and WALLET_CONFORMANCE_OTP_CODE; then
 * `npx vitest run tests/conformance/wallet-sandbox.test.ts`.
 */
const external = process.env.WALLET_CONFORMANCE_URL;
const secret = process.env.WALLET_CONFORMANCE_SECRET ?? `whsec_${Buffer.from(randomUUID()).toString("base64")}`;
let server: Server | undefined;
let baseUrl = external ?? "";

beforeAll(async () => {
  if (external) return;
  const handler = walletProtocolHandler({
    db: await getDb(),
    secret,
    basePath: "",
    qrContent: ({ qrRequestId }) => `${baseUrl}/app/${qrRequestId}`,
    callbackRetriesMs: [100],
  });
  server = createServer(serveFetchHandler(handler, () => baseUrl));
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

const accounts: { merchantId: string; customerId: string; phone?: string }[] = JSON.parse(
  process.env.WALLET_CONFORMANCE_ACCOUNTS ?? "[]",
);

describeWalletConformance({
  baseUrl: () => baseUrl,
  secret,
  currency: process.env.WALLET_CONFORMANCE_CURRENCY ?? "DZD",
  fundsMinor: Number(process.env.WALLET_CONFORMANCE_FUNDS_MINOR ?? openingBalanceMinor("DZD")),
  otpCode: process.env.WALLET_CONFORMANCE_OTP_CODE ?? SANDBOX_OTP_CODE,
  sandboxExtensions: !external,
  newAccount: () => {
    if (external) {
      const account = accounts.shift();
      if (!account) throw new Error("WALLET_CONFORMANCE_ACCOUNTS has too few accounts");
      return account;
    }
    return { merchantId: randomUUID(), customerId: randomUUID(), phone: "+213555000111" };
  },
});
