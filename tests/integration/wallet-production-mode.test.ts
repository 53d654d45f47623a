import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
import { getGatewayKey } from "@/lib/crypto/gateway-key";
import { getDb } from "@/lib/db/client";
import { submitPaymentOtp } from "@/lib/payment-methods/wallet/hosted/submit-payment-otp";
import { connectedWallet } from "@/lib/wallet-connection/wallet-connection";
import { recreateDatabase } from "../../scripts/lib/recreate-database";
import { createMerchant } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";
import {
  capture,
  createIntent,
  notificationsOf,
  paymentRow,
  proceed,
  proceedToOtp,
  refund,
  serverHeaders,
  serviceIdOf,
} from "../support/payments";

/*
 * APP_ENV=production: the gateway has no wallet of its own, so every wallet call goes over
 * HTTP to WALLET_PROVIDER_URL, here the standalone sandbox wallet (`npm run wallet-sandbox`,
 * a process of its own on a database of its own), signed with WALLET_PROVIDER_SECRET, and its
 * QR callbacks come back over HTTP to PUBLIC_BASE_URL (the test gateway).
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
let walletUrl = "";
const walletDatabaseUrl = `postgres://postgres@127.0.0.1:5432/gw_wallet_service_${process.pid}`;
const secret = `whsec_${randomBytes(32).toString("base64")}`;
let walletProcess: ChildProcess | undefined;

const gateway = useTestGateway();
const { api } = gateway;
const holder = globalThis as unknown as { gatewayConfig?: ReturnType<typeof parseConfig> };
let sandboxConfig: ReturnType<typeof parseConfig> | undefined;
let merchant: Awaited<ReturnType<typeof createMerchant>>;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function walletAnswers(): Promise<boolean> {
  try {
    return (await fetch(`${walletUrl}/v1/balances`)).status === 401; // Unsigned: refused, so it is up.
  } catch {
    return false;
  }
}

beforeAll(async () => {
  await recreateDatabase(walletDatabaseUrl);
  const port = await freePort();
  walletUrl = `http://127.0.0.1:${port}`;
  // One process (node with tsx's loader), so stopping it stops the service.
  walletProcess = spawn(process.execPath, ["--import", "tsx", "scripts/wallet-sandbox.ts"], {
    cwd: ROOT,
    env: {
      ...process.env,
      WALLET_SANDBOX_PORT: String(port),
      WALLET_SANDBOX_DATABASE_URL: walletDatabaseUrl,
      WALLET_PROVIDER_SECRET: secret,
      LOG_LEVEL: "silent",
    },
    stdio: "ignore",
  });
  while (!(await walletAnswers())) {
    if (walletProcess.exitCode !== null) throw new Error("the sandbox wallet service exited");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await getGatewayKey(await getDb()); // Loaded once, as a production gateway would from GATEWAY_SECRET.
  // Onboarded beforehand (production onboarding also asks for card keys, not the subject here).
  merchant = await createMerchant();
  sandboxConfig = holder.gatewayConfig;
  holder.gatewayConfig = parseConfig({
    ...process.env,
    APP_ENV: "production",
    PUBLIC_BASE_URL: gateway.baseUrl,
    GATEWAY_SECRET: randomBytes(32).toString("base64"),
    WALLET_PROVIDER_URL: walletUrl,
    WALLET_PROVIDER_SECRET: secret,
    // The test gateway listens on plain http on this machine, as behind a TLS-ending proxy.
    TLS_TERMINATED_BY_PROXY: "true",
    WEBHOOK_RETRY_SCHEDULE: undefined,
  });
}, 120_000);

afterAll(async () => {
  holder.gatewayConfig = sandboxConfig;
  walletProcess?.kill("SIGTERM");
  await new Promise((resolve) =>
    walletProcess?.exitCode !== null ? resolve(null) : walletProcess.once("exit", resolve),
  );
  await recreateDatabase(walletDatabaseUrl, { dropOnly: true });
});

describe("a wallet payment in production, against a wallet service over HTTP", () => {
  it("takes create, proceed, OTP, part capture and refund, the wallet's books agreeing with the payment", async () => {
    expect(holder.gatewayConfig?.isSandbox).toBe(false);
    const intent = await createIntent(api, merchant, { amount: 800, captureMethod: "RESERVATION" });
    const token = await proceedToOtp(api, merchant, intent.paymentId);

    const verified = await submitPaymentOtp(await getDb(), { paymentId: intent.paymentId, token, code: "123456" });
    expect(verified.statusCode).toBe(13);
    const payment = await paymentRow(intent.paymentId);
    const wallet = await connectedWallet();
    const account = { merchantId: await serviceIdOf(merchant), customerId: payment.customerId, currency: "DZD" };
    expect(await wallet.balance(account)).toMatchObject({ balanceMinor: 1_000_000, heldMinor: 80_000 });

    const captured = await capture(api, merchant, intent.paymentId, { amount: 500 });
    expect(captured.status).toBe(200);
    expect(captured.body.data.statusCode).toBe(2);
    const refunded = await refund(api, merchant, intent.paymentId, { description: "one item back", amount: 200 });
    expect(refunded.status).toBe(200);
    expect(refunded.body.data).toMatchObject({
      refundedAmount: 200,
      totalRefundedAmount: 200,
      remainingRefundableAmount: 300,
    });

    expect(await paymentRow(intent.paymentId)).toMatchObject({
      state: "PARTIALLY_REFUNDED",
      capturedMinor: 50_000,
      refundedMinor: 20_000,
    });
    expect(await wallet.balance(account)).toMatchObject({ balanceMinor: 1_000_000 - 50_000 + 20_000, heldMinor: 0 });
    expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual([
      "payment.pre_authorized",
      "payment.captured",
      "payment.refunded",
    ]);
  });

  it("takes a QR payment: the wallet's signed callback comes over HTTP, settles it once; then a refund", async () => {
    const intent = await createIntent(api, merchant, { amount: 120, transactionType: "QR_CODE" });
    const proceeded = await proceed(api, intent.paymentId, serverHeaders(merchant));
    expect(proceeded.status).toBe(200);
    const waiting = await paymentRow(intent.paymentId);
    expect(waiting.state).toBe("PROCESSING");

    // The customer approves in the wallet's app; the wallet posts its callback to PUBLIC_BASE_URL.
    const wallet = await connectedWallet();
    const qr = await wallet.answerQrInSandbox(waiting.providerTransactionId!, "approve");
    expect(await paymentRow(intent.paymentId)).toMatchObject({
      state: "SUCCEEDED",
      approvalCode: qr.approvalCode,
      capturedMinor: 12_000,
    });
    const account = { merchantId: await serviceIdOf(merchant), customerId: waiting.customerId, currency: "DZD" };
    const before = (await wallet.balance(account)).balanceMinor;

    const refunded = await refund(api, merchant, intent.paymentId, { description: "returned", amount: 20 });
    expect(refunded.status).toBe(200);
    expect(await wallet.balance(account)).toMatchObject({ balanceMinor: before + 2_000, heldMinor: 0 });
    expect((await notificationsOf(intent.paymentId)).map((n) => n.type)).toEqual([
      "payment.succeeded",
      "payment.refunded",
    ]);
  });
});
