import { randomInt, randomUUID } from "node:crypto";
import type { OnboardedMerchant } from "../../lib/merchants/onboard-merchant.schema";
import { BASE_URL } from "./env";

export type MerchantRole = "shared" | "expiry" | "expiryUnswept" | "resend" | "noRedirect" | "clockNoScript";

export function merchant(role: MerchantRole): OnboardedMerchant {
  const all = JSON.parse(process.env.E2E_MERCHANTS ?? "{}") as Record<MerchantRole, OnboardedMerchant>;
  if (!all[role]) throw new Error("E2E_MERCHANTS is not set: run the suite through playwright.config.ts");
  return all[role];
}

export function merchantSite(): string {
  return process.env.E2E_MERCHANT_SITE ?? "";
}

function clientAuth(shop: OnboardedMerchant) {
  const credentials = Buffer.from(`${shop.clientId}:${shop.clientSecret}`).toString("base64");
  return { authorization: `Bearer ${credentials}`, "x-service": shop.service, "content-type": "application/json" };
}

async function call<T>(
  shop: OnboardedMerchant,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${BASE_URL}${path}`, {
    method,
    headers: { ...clientAuth(shop), "x-platform": "API", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = (await response.json()) as { data: T; error?: unknown };
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(payload)}`);
  return payload.data;
}

export interface WalletPayment {
  paymentId: string;
  payUrl: string;
}

/** What a merchant's server does before sending the buyer to the OTP page: create, then proceed. */
export async function startWalletPayment(
  shop: OnboardedMerchant,
  options: {
    amount?: number;
    currency?: string;
    country?: string;
    captureMethod?: "DIRECT" | "RESERVATION";
    xLocale?: string;
  } = {},
): Promise<WalletPayment> {
  const country = options.country ?? "DZA";
  const intent = await call<{ paymentId: string }>(shop, "POST", `/api/v1/payments/intents?countryCode=${country}`, {
    actionId: `e2e-${randomUUID()}`,
    amount: options.amount ?? 1250.75,
    actionCurrencyCode: options.currency ?? "DZD",
    actionCountryCode: country,
    userId: `+213${randomInt(500_000_000, 799_999_999)}`,
    captureMethod: options.captureMethod ?? "DIRECT",
  });
  const proceeded = await call<{ metadata: { payUrl: string }; statusCode: number }>(
    shop,
    "POST",
    `/api/v1/payments/intents/${intent.paymentId}/proceed`,
    { paymentMethodCode: "WALLET_V2" },
    options.xLocale ? { "x-locale": options.xLocale } : {},
  );
  if (proceeded.statusCode !== 12) throw new Error(`proceed answered statusCode ${proceeded.statusCode}`);
  return { paymentId: intent.paymentId, payUrl: proceeded.metadata.payUrl };
}

/** The merchant appends its returnUrl to payUrl (interface, proceed result). */
export function withReturnUrl(payUrl: string, returnUrl: string): string {
  return `${payUrl}&returnUrl=${encodeURIComponent(returnUrl)}`;
}

export async function checkPayment(shop: OnboardedMerchant, paymentId: string) {
  return call<{ statusCode: number }>(shop, "GET", `/api/v1/payments/intents/${paymentId}/check`);
}

/** Moves the service's sandbox clock forward (contract 9). */
export async function advanceClock(shop: OnboardedMerchant, advanceSeconds: number) {
  await call(shop, "POST", "/api/v1/sandbox/clock", { advanceSeconds });
}
