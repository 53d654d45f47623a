import { randomInt, randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { createTranslator } from "use-intl/core";
import type { OnboardedMerchant } from "../../lib/merchants/onboard-merchant.schema";
import postgres from "postgres";
import { BASE_URL, E2E_DATABASE_URL } from "./env";
import { catalogueOf, type PageLocale } from "./messages";

/** The hosted pages' words and the checkout's (messages/checkout), as the page renders them. */
export function checkoutText(locale: PageLocale): (key: string, values?: Record<string, string | number>) => string {
  const t = createTranslator({ locale, messages: catalogueOf(locale, [`${locale}.json`, `checkout/${locale}.json`]) });
  return (key, values) =>
    (t as unknown as (key: string, values?: Record<string, string | number>) => string)(key, values);
}

async function call<T>(shop: OnboardedMerchant, method: string, apiPath: string, body?: unknown): Promise<T> {
  const credentials = Buffer.from(`${shop.clientId}:${shop.clientSecret}`).toString("base64");
  const response = await fetch(`${BASE_URL}${apiPath}`, {
    method,
    headers: {
      authorization: `Bearer ${credentials}`,
      "x-service": shop.service,
      "content-type": "application/json",
      "x-platform": "API",
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${method} ${apiPath} answered ${response.status}: ${JSON.stringify(payload)}`);
  return payload.data;
}

export function buyerPhone(): string {
  return `+213${randomInt(500_000_000, 799_999_999)}`;
}

/** A merchant's server creating an intent and sending the buyer to its checkoutUrl (with its returnUrl). */
export async function intentCheckout(
  shop: OnboardedMerchant,
  options: {
    amount?: number;
    transactionType?: "QR_CODE";
    returnUrl?: string;
    country?: string;
    currency?: string;
    captureMethod?: "DIRECT" | "RESERVATION";
  } = {},
) {
  const country = options.country ?? "DZA";
  const intent = await call<{ paymentId: string; checkoutUrl: string }>(
    shop,
    "POST",
    `/api/v1/payments/intents?countryCode=${country}`,
    {
      actionId: `e2e-checkout-${randomUUID()}`,
      amount: options.amount ?? 1250.75,
      actionCurrencyCode: options.currency ?? "DZD",
      actionCountryCode: country,
      userId: buyerPhone(),
      ...(options.transactionType ? { transactionType: options.transactionType } : {}),
      ...(options.captureMethod ? { captureMethod: options.captureMethod } : {}),
    },
  );
  const url = options.returnUrl
    ? `${intent.checkoutUrl}&returnUrl=${encodeURIComponent(options.returnUrl)}`
    : intent.checkoutUrl;
  return { paymentId: intent.paymentId, url };
}

export interface LinkView {
  id: string;
  url: string;
  title: string;
  paymentsCount: number;
  succeededAmount: number;
}

export function createLink(shop: OnboardedMerchant, body: Record<string, unknown>): Promise<LinkView> {
  return call<LinkView>(shop, "POST", "/api/v1/payment-links", { currency: "DZD", countryCode: "DZA", ...body });
}

export function getLink(shop: OnboardedMerchant, id: string): Promise<LinkView> {
  return call<LinkView>(shop, "GET", `/api/v1/payment-links/${id}`);
}

export function deactivateLink(shop: OnboardedMerchant, id: string): Promise<LinkView> {
  return call<LinkView>(shop, "POST", `/api/v1/payment-links/${id}/deactivate`, {});
}

/** The checkout and link pages' shared parts, by their accessible names (contract 14). */
export function methodChoice(page: Page, locale: PageLocale) {
  const t = checkoutText(locale);
  const group = page.getByRole("group", { name: t("checkout.methodLegend"), exact: true });
  return {
    group,
    wallet: group.getByRole("radio", { name: t("checkout.methods.WALLET_V2"), exact: true }),
    card: group.getByRole("radio", { name: t("checkout.methods.CARD_PROVIDER"), exact: true }),
    satim: group.getByRole("radio", { name: t("checkout.methods.SATIM"), exact: true }),
    clictopay: group.getByRole("radio", { name: t("checkout.methods.CLICTOPAY"), exact: true }),
    cmi: group.getByRole("radio", { name: t("checkout.methods.CMI"), exact: true }),
    chargily: group.getByRole("radio", { name: t("checkout.methods.CHARGILY"), exact: true }),
    continue: page.getByRole("button", { name: t("checkout.continue"), exact: true }),
  };
}

/** Turns off every payment method of a merchant in one country (an operator's change: no API does it). */
export async function disableMethods(shop: OnboardedMerchant, country: string): Promise<void> {
  const sql = postgres(E2E_DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    await sql`update payment_method_catalog set enabled = false
      where country = ${country} and service_id = (select id from services where code = ${shop.service})`;
  } finally {
    await sql.end();
  }
}
