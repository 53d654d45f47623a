import { randomInt, randomUUID } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import postgres from "postgres";
import type { OnboardedMerchant } from "../../lib/merchants/onboard-merchant.schema";
import { BASE_URL, E2E_DATABASE_URL } from "./env";

/** Contract section 9's test cards, and a CVC for them. */
export const CARDS = {
  visa: "4242 4242 4242 4242",
  mastercard: "5555 5555 5555 4444",
  declined: "4000 0000 0000 0002",
  insufficientFunds: "4000 0000 0000 9995",
  threeDSecure: "4000 0000 0000 3220",
} as const;
export const CVC = "737";

export function futureExpiry(): string {
  return `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, "0")}`;
}

export type Language = "en" | "fr" | "ar";

const ROOT = path.resolve(import.meta.dirname, "../..");
type Messages = Record<string, Record<string, string>>;
const messages = (locale: Language) =>
  JSON.parse(readFileSync(path.join(ROOT, "messages", `${locale}.json`), "utf8")) as Messages;

/** A message as the page renders it, with `{name}` placeholders filled (no plurals needed here). */
export function text(locale: Language, key: string, values: Record<string, string> = {}): string {
  const [namespace, name] = key.split(".") as [string, string];
  const template = messages(locale)[namespace]?.[name];
  if (template === undefined) throw new Error(`no message ${key} in ${locale}`);
  return template.replace(/\{(\w+)\}/g, (_match, field: string) => values[field] ?? `{${field}}`);
}

/** The card page's parts, found by their accessible names (contract 10) in the page's language. */
export function cardPage(page: Page, locale: Language = "en") {
  return {
    number: page.getByLabel(text(locale, "card.numberLabel"), { exact: true }),
    expiry: page.getByLabel(text(locale, "card.expiryLabel"), { exact: true }),
    cvc: page.getByLabel(text(locale, "card.cvcLabel"), { exact: true }),
    save: page.getByRole("checkbox", { name: text(locale, "card.saveCard"), exact: true }),
    // "Pay DZD 2,490.50": the words before the amount, whatever the amount.
    pay: page.getByRole("button", {
      name: new RegExp(`^${escapeRegExp(text(locale, "card.payAmount").split("{amount}")[0]!)}`),
    }),
    newCard: page.getByRole("radio", { name: text(locale, "card.newCard"), exact: true }),
    savedCard: (brand: string, last4: string) =>
      page.getByRole("radio", { name: text(locale, "card.savedCard", { brand, last4 }), exact: true }),
  };
}

export async function enterCard(
  page: Page,
  locale: Language,
  number: string,
  options: { save?: boolean; expiry?: string; cvc?: string } = {},
) {
  const form = cardPage(page, locale);
  await form.number.fill(number);
  await form.expiry.fill(options.expiry ?? futureExpiry());
  await form.cvc.fill(options.cvc ?? CVC);
  if (options.save) await form.save.check();
}

/**
 * What of the Next.js client runtime a page has: its script chunks in the HTML or fetched, and
 * its RSC payload. A hosted page that ships no runtime (issue 16) has none of it.
 */
export async function nextRuntimeIn(page: Page): Promise<string[]> {
  const found = await page.evaluate(() => [
    ...Array.from(
      document.querySelectorAll("script[src], link[href]"),
      (element) => element.getAttribute("src") ?? element.getAttribute("href") ?? "",
    ),
    ...performance.getEntriesByType("resource").map((entry) => entry.name),
    ...("__next_f" in self ? ["self.__next_f (the RSC payload)"] : []),
  ]);
  return found.filter((address) => /\/_next\/static\/chunks\/[^?#]*\.js\b|__next_f/.test(address));
}

/**
 * The card page runs on the card-form island alone. Called after the card was typed, so a
 * script that waits for the buyer's first key or touch would have come by now.
 */
export async function expectNoNextRuntime(page: Page) {
  expect(await nextRuntimeIn(page)).toEqual([]);
  await expect(page.locator("html")).toHaveAttribute("data-islands-ready", /(^| )card-form( |$)/);
}

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
  pathname: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${BASE_URL}${pathname}`, {
    method,
    headers: { ...clientAuth(shop), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const payload = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${method} ${pathname} answered ${response.status}: ${JSON.stringify(payload)}`);
  return payload.data;
}

export function randomBuyer(): string {
  return `+213${randomInt(500_000_000, 799_999_999)}`;
}

/** What a merchant's server does before sending the buyer to the card page: create, then proceed with CARD_PROVIDER. */
export async function startCardPayment(
  shop: OnboardedMerchant,
  options: {
    userId?: string;
    amount?: number;
    currency?: string;
    country?: string;
    captureMethod?: "DIRECT" | "RESERVATION";
    xLocale?: string;
    cardId?: string;
    redirectUrl?: string;
  } = {},
) {
  const country = options.country ?? "DZA";
  const userId = options.userId ?? randomBuyer();
  const intent = await call<{ paymentId: string; clientSecret: string }>(
    shop,
    "POST",
    `/api/v1/payments/intents?countryCode=${country}`,
    {
      actionId: `e2e-card-${randomUUID()}`,
      amount: options.amount ?? 2490.5,
      actionCurrencyCode: options.currency ?? "DZD",
      actionCountryCode: country,
      userId,
      captureMethod: options.captureMethod ?? "DIRECT",
    },
  );
  const proceeded = await call<{ metadata: { payUrl: string }; statusCode: number }>(
    shop,
    "POST",
    `/api/v1/payments/intents/${intent.paymentId}/proceed`,
    {
      paymentMethodCode: "CARD_PROVIDER",
      ...(options.cardId ? { cardId: options.cardId } : {}),
      ...(options.redirectUrl ? { redirectUrl: options.redirectUrl } : {}),
    },
    options.xLocale ? { "x-locale": options.xLocale } : {},
  );
  if (proceeded.statusCode !== 12) throw new Error(`card proceed answered statusCode ${proceeded.statusCode}`);
  return { paymentId: intent.paymentId, clientSecret: intent.clientSecret, payUrl: proceeded.metadata.payUrl, userId };
}

export function checkCardPayment(shop: OnboardedMerchant, paymentId: string) {
  return call<{ statusCode: number; amount: number }>(shop, "GET", `/api/v1/payments/intents/${paymentId}/check`);
}

export function capturePayment(shop: OnboardedMerchant, paymentId: string, amount?: number) {
  return call<{ statusCode: number }>(
    shop,
    "POST",
    `/api/v1/payments/intents/${paymentId}/capture`,
    amount === undefined ? {} : { amount },
  );
}

/** Every full test card number (spaced or not) and the CVC as a whole value, wherever `haystack` shows one. */
export function cardDataIn(haystack: string): string[] {
  const found: string[] = [];
  for (const number of Object.values(CARDS)) {
    for (const form of [number, number.replace(/ /g, "")])
      if (haystack.includes(form)) found.push(`card number ending ${number.slice(-4)}`);
  }
  if (new RegExp(`"(cvc|cvv)"\\s*:`, "i").test(haystack)) found.push("a field named cvc");
  if (new RegExp(`:\\s*"?${CVC}"?\\s*[,}\\]]`).test(haystack)) found.push("a value equal to the CVC");
  return found;
}

/** Scans every row of every table of the e2e database (as JSON text) for card data. */
export async function cardDataInDatabase(): Promise<{ table: string; finding: string }[]> {
  const sql = postgres(E2E_DATABASE_URL, { max: 1, onnotice: () => {} });
  try {
    const tables = await sql<{ table_name: string }[]>`
      select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`;
    const found: { table: string; finding: string }[] = [];
    for (const { table_name: table } of tables) {
      const rows = await sql<{ row: string }[]>`select row_to_json(t)::text as row from ${sql(table)} t`;
      for (const { row } of rows) for (const finding of cardDataIn(row)) found.push({ table, finding });
    }
    return found;
  } finally {
    await sql.end();
  }
}

/** The server's log of this run, when the runner captured it (E2E_SERVER_LOG); null otherwise. */
export function serverLog(): string | null {
  const file = process.env.E2E_SERVER_LOG;
  return file && existsSync(file) ? readFileSync(file, "utf8") : null;
}

function escapeRegExp(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
