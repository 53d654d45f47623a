import { randomInt, randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import type { OnboardedMerchant } from "../../lib/merchants/onboard-merchant.schema";
import { BASE_URL } from "./env";
import { messagesFor, type PageLocale } from "./messages";

function clientAuth(shop: OnboardedMerchant) {
  const credentials = Buffer.from(`${shop.clientId}:${shop.clientSecret}`).toString("base64");
  return {
    authorization: `Bearer ${credentials}`,
    "x-service": shop.service,
    "x-platform": "API",
    "content-type": "application/json",
  };
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
    headers: { ...clientAuth(shop), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${JSON.stringify(payload)}`);
  return payload.data;
}

export interface QrPayment {
  paymentId: string;
  qrPageUrl: string;
  qrImageUrl: string;
}

/** What a merchant's server does before showing the QR page: create a QR_CODE intent, proceed with WALLET_V2. */
export async function startQrPayment(
  shop: OnboardedMerchant,
  options: {
    amount?: number;
    currency?: string;
    country?: string;
    captureMethod?: "DIRECT" | "RESERVATION";
    xLocale?: string;
  } = {},
): Promise<QrPayment> {
  const country = options.country ?? "DZA";
  const intent = await call<{ paymentId: string }>(shop, "POST", `/api/v1/payments/intents?countryCode=${country}`, {
    actionId: `e2e-qr-${randomUUID()}`,
    amount: options.amount ?? 1250.75,
    actionCurrencyCode: options.currency ?? "DZD",
    actionCountryCode: country,
    userId: `+213${randomInt(500_000_000, 799_999_999)}`,
    captureMethod: options.captureMethod ?? "DIRECT",
    transactionType: "QR_CODE",
  });
  const proceeded = await call<{ metadata: { qrPageUrl: string; qrImageUrl: string }; statusCode?: number }>(
    shop,
    "POST",
    `/api/v1/payments/intents/${intent.paymentId}/proceed`,
    { paymentMethodCode: "WALLET_V2" },
    options.xLocale ? { "x-locale": options.xLocale } : {},
  );
  if (proceeded.statusCode !== undefined) throw new Error(`QR proceed answered statusCode ${proceeded.statusCode}`);
  return { paymentId: intent.paymentId, ...proceeded.metadata };
}

/** The sandbox test helper: answers as the customer's wallet app would (contract 9). */
export function answerQrPayment(shop: OnboardedMerchant, paymentId: string, outcome: "approve" | "decline") {
  return call<{ statusCode: number }>(shop, "POST", `/api/v1/sandbox/payments/${paymentId}/qr`, { outcome });
}

/** The QR page's parts, by their accessible names in the page's language (English ones: contract 10). */
export function qrPage(page: Page, locale: PageLocale = "en") {
  const t = messagesFor(locale);
  return {
    image: page.getByRole("img", { name: t("qr.imageAlt"), exact: true }),
    status: page.getByRole("status").filter({ hasText: t("qr.waiting") }),
    statusSaying: (key: string) => page.getByRole("status").filter({ hasText: t(key) }),
    walletAppLink: page.getByRole("link", { name: t("qr.openWalletApp"), exact: true }),
  };
}

export function walletApp(page: Page, locale: PageLocale = "en") {
  const t = messagesFor(locale);
  return {
    approve: page.getByRole("button", { name: t("wallet.approve"), exact: true }),
    decline: page.getByRole("button", { name: t("wallet.decline"), exact: true }),
    heading: (key: string) => page.getByRole("heading", { level: 1, name: t(key), exact: true }),
  };
}

/**
 * Opens the page the QR code links to in a second browser page, as the customer's phone would.
 * Its CSP violations and script errors go to `problems` (the fixture watches the first page only).
 */
export async function openWalletApp(qr: Page, problems: string[], locale: PageLocale = "en"): Promise<Page> {
  const href = await qrPage(qr, locale).walletAppLink.getAttribute("href");
  if (!href) throw new Error("the QR page offers no wallet app link");
  const phone = await qr.context().newPage();
  phone.on("console", (message) => {
    if (/Content Security Policy|Refused to (execute|load|apply)/i.test(message.text()))
      problems.push(`wallet app: ${message.text()}`);
  });
  phone.on("pageerror", (error) => problems.push(`wallet app page error: ${error.message}`));
  await phone.goto(href);
  return phone;
}
