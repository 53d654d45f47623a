import { and, asc, eq, sql } from "drizzle-orm";
import { getDb } from "@/lib/db/client";
import { customers, notifications, payments, services } from "@/lib/db/schema";
import { walletAccounts, walletEntries } from "@/simulators/wallet/wallet-tables";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { submitPaymentOtp } from "@/lib/payment-methods/wallet/hosted/submit-payment-otp";
import { reconcileProviderOperations } from "@/lib/provider-operation-registry/reconcile-provider-operations";
import { clientAuth, merchantAuth, type ApiClient } from "./api";
import { randomPhone } from "./factories";

/** The sandbox wallet's opening balance of a new customer: 10,000.00 DZD in minor units. */
export const OPENING_DZD = 1_000_000;

let actionCounter = 0;

export function newActionId(): string {
  actionCounter += 1;
  return `order-${process.pid}-${Date.now()}-${actionCounter}`;
}

export interface IntentOverrides {
  actionId?: string;
  amount?: number;
  actionCurrencyCode?: string;
  actionCountryCode?: string;
  userId?: string;
  captureMethod?: "DIRECT" | "RESERVATION";
  transactionType?: string;
  metaData?: Record<string, unknown>;
}

export function intentBody(overrides: IntentOverrides = {}) {
  return {
    actionId: newActionId(),
    amount: 1500,
    actionCurrencyCode: "DZD",
    actionCountryCode: "DZA",
    userId: randomPhone(),
    ...overrides,
  };
}

/** POST /payments/intents; the response as the API answers it. */
export function postIntent(api: ApiClient, merchant: OnboardedMerchant, body: object, countryCode = "DZA") {
  return api.post(`/api/v1/payments/intents?countryCode=${countryCode}`, body, clientAuth(merchant));
}

/** A created intent (asserts the 201). */
export async function createIntent(api: ApiClient, merchant: OnboardedMerchant, overrides: IntentOverrides = {}) {
  const body = intentBody(overrides);
  const response = await postIntent(api, merchant, body, body.actionCountryCode);
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
  return {
    ...(response.body.data as { paymentId: string; clientSecret: string; amount: number; currency: string }),
    body,
  };
}

export const serverHeaders = (merchant: OnboardedMerchant, extra: Record<string, string> = {}) =>
  clientAuth(merchant, { "x-service": merchant.service, "x-platform": "API", ...extra });

export const browserHeaders = (merchant: OnboardedMerchant, clientSecret: string, extra: Record<string, string> = {}) =>
  merchantAuth(merchant, clientSecret, { "x-platform": "WEB", ...extra });

export function proceed(
  api: ApiClient,
  paymentId: string,
  headers: Record<string, string>,
  body: object = { paymentMethodCode: "WALLET_V2" },
) {
  return api.post(`/api/v1/payments/intents/${paymentId}/proceed`, body, headers);
}

export function check(api: ApiClient, paymentId: string, headers: Record<string, string>) {
  return api.get(`/api/v1/payments/intents/${paymentId}/check`, headers);
}

export function capture(
  api: ApiClient,
  merchant: OnboardedMerchant,
  paymentId: string,
  body: object = {},
  extra: Record<string, string> = {},
) {
  return api.post(`/api/v1/payments/intents/${paymentId}/capture`, body, clientAuth(merchant, extra));
}

export function release(
  api: ApiClient,
  merchant: OnboardedMerchant,
  paymentId: string,
  extra: Record<string, string> = {},
) {
  return api.post(`/api/v1/payments/intents/${paymentId}/release`, {}, clientAuth(merchant, extra));
}

export function refund(
  api: ApiClient,
  merchant: OnboardedMerchant,
  paymentId: string,
  body: object = { description: "customer request" },
  extra: Record<string, string> = {},
) {
  return api.post(`/api/v1/payments/${paymentId}/refund`, body, clientAuth(merchant, extra));
}

export function advanceClock(api: ApiClient, merchant: OnboardedMerchant, advanceSeconds: number) {
  return api.post("/api/v1/sandbox/clock", { advanceSeconds }, clientAuth(merchant));
}

/** The page token a payUrl carries. */
export function tokenOf(payUrl: string): string {
  const token = new URL(payUrl).searchParams.get("token");
  if (!token) throw new Error(`no token in ${payUrl}`);
  return token;
}

/** Server proceed (OTP path, asserts 200 and 12): the hosted OTP page's token. */
export async function proceedToOtp(
  api: ApiClient,
  merchant: OnboardedMerchant,
  paymentId: string,
  extra: Record<string, string> = {},
) {
  const proceeded = await proceed(api, paymentId, serverHeaders(merchant, extra));
  if (proceeded.status !== 200 || proceeded.body.data.statusCode !== 12) {
    throw new Error(`proceed failed: ${proceeded.status} ${JSON.stringify(proceeded.body)}`);
  }
  return tokenOf(proceeded.body.data.metadata.payUrl);
}

/** Server proceed (OTP path), then the buyer's code on the hosted page. */
export async function payWithOtp(api: ApiClient, merchant: OnboardedMerchant, paymentId: string, code = "123456") {
  const token = await proceedToOtp(api, merchant, paymentId);
  return submitPaymentOtp(await getDb(), { paymentId, token, code });
}

/**
 * A created intent the buyer paid with the right OTP: SUCCEEDED (2), or PRE_AUTHORIZED (13)
 * with `captureMethod: "RESERVATION"`. Throws on any other outcome.
 */
export async function paidIntent(api: ApiClient, merchant: OnboardedMerchant, overrides: IntentOverrides = {}) {
  const intent = await createIntent(api, merchant, overrides);
  const result = await payWithOtp(api, merchant, intent.paymentId);
  const expected = overrides.captureMethod === "RESERVATION" ? 13 : 2;
  if (result.statusCode !== expected)
    throw new Error(`payment ${intent.paymentId} ended with ${result.statusCode}, not ${expected}`);
  return intent;
}

export async function serviceIdOf(merchant: OnboardedMerchant): Promise<string> {
  const [row] = await (
    await getDb()
  )
    .select({ id: services.id })
    .from(services)
    .where(eq(services.code, merchant.service));
  if (!row) throw new Error(`no service ${merchant.service}`);
  return row.id;
}

/**
 * The customer's wallet as the ledger tells it: the account columns and the sums of its
 * entries (which must agree). Null before the wallet was first used.
 */
export async function walletLedger(merchant: OnboardedMerchant, phone: string, currency: string) {
  const db = await getDb();
  const serviceId = await serviceIdOf(merchant);
  const [account] = await db
    .select({ id: walletAccounts.id, balanceMinor: walletAccounts.balanceMinor, heldMinor: walletAccounts.heldMinor })
    .from(walletAccounts)
    .innerJoin(customers, eq(customers.id, walletAccounts.customerId))
    .where(
      and(eq(walletAccounts.serviceId, serviceId), eq(customers.phone, phone), eq(walletAccounts.currency, currency)),
    );
  if (!account) return null;
  const [sums] = await db
    .select({
      balance: sql<string>`coalesce(sum(${walletEntries.balanceDeltaMinor}), 0)`,
      held: sql<string>`coalesce(sum(${walletEntries.heldDeltaMinor}), 0)`,
    })
    .from(walletEntries)
    .where(eq(walletEntries.accountId, account.id));
  return {
    balanceMinor: account.balanceMinor,
    heldMinor: account.heldMinor,
    availableMinor: account.balanceMinor - account.heldMinor,
    ledgerBalanceMinor: Number(sums!.balance),
    ledgerHeldMinor: Number(sums!.held),
  };
}

export async function paymentRow(paymentId: string) {
  const [row] = await (await getDb()).select().from(payments).where(eq(payments.id, paymentId));
  return row!;
}

/** The outbox rows of a payment, oldest first: what the merchant will be told. */
export async function notificationsOf(paymentId: string) {
  const rows = await (
    await getDb()
  )
    .select({ type: notifications.type, payload: notifications.payload, createdAt: notifications.createdAt })
    .from(notifications)
    .where(eq(notifications.paymentId, paymentId))
    .orderBy(asc(notifications.createdAt), asc(notifications.id));
  return rows.map((row) => ({ type: row.type, data: (row.payload as { data: Record<string, unknown> }).data }));
}

/**
 * Provider-operation reconciliation as the background job runs it an hour from now (every lease
 * and back-off over), for these payments' operations only: test files share the database, and
 * another file's reconciliation must not settle this one's operations. Answers how many settled.
 */
export async function reconcileOperationsLater(paymentId: string, ...morePaymentIds: string[]): Promise<number> {
  const db = await getDb();
  const now = new Date(Date.now() + 60 * 60_000);
  let settled = 0;
  for (const id of [paymentId, ...morePaymentIds])
    settled += await reconcileProviderOperations(db, { now, paymentId: id });
  return settled;
}
