import { createHmac, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "../../lib/db/client";
import { normalizeDigits, passesLuhn } from "../../lib/validation/card-number";
import { chargilyCheckouts } from "./chargily-tables";
import { CHARGILY_PAGE_CSP, chargilyPageText, chargilyPaymentPage } from "./chargily-payment-page";

/*
 * Chargily Pay's v2 API as a merchant sees it (https://dev.chargily.com/pay-v2/, and its
 * official SDK @chargily/chargily-pay), for the sandbox: POST /checkouts, GET /checkouts/{id},
 * POST /checkouts/{id}/expire and GET /balance under /api/v2, JSON with `Authorization: Bearer
 * <secret key>` (401 otherwise, 422 for an invalid request); the hosted checkout where the buyer
 * pays with EDAHABIA or CIB and is sent to success_url or failure_url; and the webhook Chargily
 * posts to webhook_endpoint: an event { entity: "event", type: "checkout.paid" | "checkout.failed"
 * | "checkout.expired", data: <the checkout> } signed in the `signature` header with the hex
 * HMAC-SHA256 of the raw body under the merchant's secret key. Amounts in whole dinars.
 */

/** The simulator's one merchant (the gateway's sandbox default, lib/payment-methods/chargily/chargily-account.ts). */
export const CHARGILY_SANDBOX_SECRET_KEY = "test_sk_SandboxChargilyMerchant0000000000";

/** Posts one signed webhook request; answers the gateway's response. */
export type WebhookSender = (request: Request) => Promise<Response>;

/**
 * Failure modes a test or a rehearsal switches on: the API down (HTTP 503) or slow (answers after
 * `slowMs`); the webhook sent before the buyer's return (Chargily's usual order), after it, twice, or never.
 */
export const chargilyFaults: {
  mode: "none" | "down" | "slow";
  slowMs: number;
  webhook: "before_return" | "after_return" | "twice" | "none";
  afterReturnMs: number;
} = {
  mode: "none",
  slowMs: 15_000,
  webhook: "before_return",
  afterReturnMs: 300,
};

type Json = Record<string, unknown>;
type Checkout = typeof chargilyCheckouts.$inferSelect;
const json = (body: Json, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const unix = (date: Date) => Math.floor(date.getTime() / 1000);

/** Every request under the simulator's path (`base` is where it is served, e.g. /api/chargily-sandbox). */
export async function handleChargilyRequest(
  db: Db,
  request: Request,
  options: { base: string; sendWebhook: WebhookSender },
): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.slice(options.base.length);
  const publicBase = `${url.origin}${options.base}`;
  if (path.startsWith("/api/v2/")) {
    if (chargilyFaults.mode === "down") return json({ message: "Service Unavailable" }, 503);
    if (chargilyFaults.mode === "slow") await new Promise((resolve) => setTimeout(resolve, chargilyFaults.slowMs));
    if (request.headers.get("authorization") !== `Bearer ${CHARGILY_SANDBOX_SECRET_KEY}`)
      return json({ message: "Unauthenticated." }, 401);
    return apiCall(db, request, path.slice("/api/v2/".length), { publicBase, sendWebhook: options.sendWebhook });
  }
  const page = /^\/checkout\/([A-Za-z0-9]+)$/.exec(path);
  if (page) return checkoutPage(db, request, page[1]!, options.sendWebhook);
  return json({ message: "Not Found" }, 404);
}

async function apiCall(
  db: Db,
  request: Request,
  endpoint: string,
  context: { publicBase: string; sendWebhook: WebhookSender },
): Promise<Response> {
  if (endpoint === "balance" && request.method === "GET") {
    return json({
      entity: "balance",
      livemode: false,
      wallets: [{ currency: "dzd", balance: 0, ready_for_payout: 0, on_hold: 0 }],
    });
  }
  if (endpoint === "checkouts" && request.method === "POST") return createCheckout(db, request, context.publicBase);
  const one = /^checkouts\/([A-Za-z0-9]+)(\/expire)?$/.exec(endpoint);
  if (one) {
    const checkout = await findCheckout(db, one[1]!);
    if (!checkout) return json({ message: "Not Found" }, 404);
    if (!one[2] && request.method === "GET") return json(checkoutObject(checkout, context.publicBase));
    if (one[2] && request.method === "POST") {
      if (checkout.status !== "pending") return json({ message: "This checkout cannot be expired." }, 422);
      const expired = await setStatus(db, checkout, { status: "expired" });
      await deliver(expired, "checkout.expired", context.publicBase, context.sendWebhook);
      return json(checkoutObject(expired, context.publicBase));
    }
  }
  return json({ message: "Not Found" }, 404);
}

async function createCheckout(db: Db, request: Request, publicBase: string): Promise<Response> {
  let body: Json;
  try {
    body = (await request.json()) as Json;
  } catch {
    return json({ message: "The request body is not JSON." }, 422);
  }
  const errors: Record<string, string[]> = {};
  const isUrl = (value: unknown) => typeof value === "string" && /^https?:\/\/\S+$/.test(value);
  if (typeof body.amount !== "number" || !Number.isInteger(body.amount))
    errors.amount = ["The amount field must be an integer."];
  else if (body.amount < 50) errors.amount = ["The amount field must be at least 50."];
  if (body.currency !== "dzd") errors.currency = ["The selected currency is invalid."];
  if (!isUrl(body.success_url)) errors.success_url = ["The success url field must be a valid URL."];
  if (body.failure_url !== undefined && !isUrl(body.failure_url))
    errors.failure_url = ["The failure url field must be a valid URL."];
  if (body.webhook_endpoint !== undefined && !isUrl(body.webhook_endpoint))
    errors.webhook_endpoint = ["The webhook endpoint field must be a valid URL."];
  if (body.locale !== undefined && !["ar", "en", "fr"].includes(String(body.locale)))
    errors.locale = ["The selected locale is invalid."];
  if (Object.keys(errors).length > 0) return json({ message: Object.values(errors)[0]![0]!, errors }, 422);
  const [checkout] = await db
    .insert(chargilyCheckouts)
    .values({
      id: randomBytes(16).toString("hex").slice(0, 26),
      secretKey: CHARGILY_SANDBOX_SECRET_KEY,
      amount: body.amount as number,
      currency: "dzd",
      locale: String(body.locale ?? "ar"),
      description: typeof body.description === "string" ? body.description : null,
      successUrl: String(body.success_url),
      failureUrl: typeof body.failure_url === "string" ? body.failure_url : null,
      webhookEndpoint: typeof body.webhook_endpoint === "string" ? body.webhook_endpoint : null,
      metadata: (body.metadata ?? null) as Record<string, unknown> | null,
    })
    .returning();
  return json(checkoutObject(checkout!, publicBase));
}

async function findCheckout(db: Db, id: string): Promise<Checkout | null> {
  const [checkout] = await db.select().from(chargilyCheckouts).where(eq(chargilyCheckouts.id, id));
  return checkout ?? null;
}

async function setStatus(
  db: Db,
  checkout: Checkout,
  change: { status: string; paymentMethod?: string },
): Promise<Checkout> {
  const [updated] = await db
    .update(chargilyCheckouts)
    .set({
      status: change.status,
      paymentMethod: change.paymentMethod ?? checkout.paymentMethod,
      updatedAt: new Date(),
    })
    .where(eq(chargilyCheckouts.id, checkout.id))
    .returning();
  return updated!;
}

/** The checkout as Chargily's API answers it (its SDK's Checkout type). */
function checkoutObject(checkout: Checkout, publicBase: string): Json {
  return {
    id: checkout.id,
    entity: "checkout",
    livemode: false,
    amount: checkout.amount,
    currency: checkout.currency,
    fees: 0,
    pass_fees_to_customer: false,
    status: checkout.status,
    locale: checkout.locale,
    description: checkout.description,
    success_url: checkout.successUrl,
    failure_url: checkout.failureUrl,
    webhook_endpoint: checkout.webhookEndpoint,
    payment_method: checkout.paymentMethod,
    invoice_id: null,
    customer_id: null,
    payment_link_id: null,
    metadata: checkout.metadata ?? [],
    created_at: unix(checkout.createdAt),
    updated_at: unix(checkout.updatedAt),
    shipping_address: null,
    collect_shipping_address: false,
    checkout_url: `${publicBase}/checkout/${checkout.id}`,
  };
}

/** The webhook as Chargily posts it: the event, signed with the merchant's secret key. */
export function signedWebhook(checkout: Checkout, type: string, publicBase: string): Request {
  const now = unix(new Date());
  const body = JSON.stringify({
    id: randomBytes(13).toString("hex"),
    entity: "event",
    livemode: "false",
    type,
    data: checkoutObject(checkout, publicBase),
    created_at: now,
    updated_at: now,
  });
  const signature = createHmac("sha256", checkout.secretKey).update(body).digest("hex");
  return new Request(checkout.webhookEndpoint!, {
    method: "POST",
    headers: { "content-type": "application/json", signature },
    body,
  });
}

async function deliver(checkout: Checkout, type: string, publicBase: string, send: WebhookSender): Promise<void> {
  if (!checkout.webhookEndpoint || chargilyFaults.webhook === "none") return;
  const once = async () => {
    try {
      await send(signedWebhook(checkout, type, publicBase));
    } catch {
      // The merchant's endpoint is away: Chargily does not block the buyer on it.
    }
  };
  if (chargilyFaults.webhook === "after_return") {
    setTimeout(() => void once(), chargilyFaults.afterReturnMs);
    return;
  }
  await once();
  if (chargilyFaults.webhook === "twice") await once();
}

/** The section 9 cards: what each does on Chargily's page (any other valid card pays). */
const DECLINING_CARDS = new Set(["4000000000000002", "4000000000009995"]);

async function checkoutPage(db: Db, request: Request, id: string, sendWebhook: WebhookSender): Promise<Response> {
  const checkout = await findCheckout(db, id);
  if (!checkout) return new Response("Unknown checkout", { status: 404, headers: { "content-type": "text/plain" } });
  const url = new URL(request.url);
  const publicBase = `${url.origin}${url.pathname.slice(0, url.pathname.lastIndexOf("/checkout/"))}`;
  const text = chargilyPageText(checkout.locale);
  const amount = `${checkout.amount} DZD`;
  const html = (body: string) =>
    new Response(body, {
      status: 200,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "content-security-policy": CHARGILY_PAGE_CSP,
      },
    });
  const back = (target: string) =>
    new Response(null, { status: 303, headers: { location: target, "cache-control": "no-store" } });
  const failureUrl = checkout.failureUrl ?? checkout.successUrl;
  if (checkout.status !== "pending") return back(checkout.status === "paid" ? checkout.successUrl : failureUrl);
  if (request.method !== "POST") return html(chargilyPaymentPage({ text, amount, locale: checkout.locale }));

  const form = new URLSearchParams(await request.text());
  if (form.get("action") === "cancel") {
    await setStatus(db, checkout, { status: "canceled" });
    return back(failureUrl);
  }
  const digits = normalizeDigits(form.get("cardNumber") ?? "");
  const expiry = /^(0[1-9]|1[0-2])\/?(\d{2})$/.exec((form.get("expiry") ?? "").replace(/\s/g, ""));
  const problem =
    !passesLuhn(digits) || digits.length < 13
      ? text.badCard
      : !expiry
        ? text.badExpiry
        : !/^\d{3}$/.test(form.get("cvc") ?? "")
          ? text.badCvc
          : null;
  if (problem) return html(chargilyPaymentPage({ text, amount, locale: checkout.locale, error: problem }));
  const paymentMethod = form.get("paymentMethod") === "cib" ? "cib" : "edahabia";
  const paid = !DECLINING_CARDS.has(digits);
  const updated = await setStatus(db, checkout, { status: paid ? "paid" : "failed", paymentMethod });
  await deliver(updated, paid ? "checkout.paid" : "checkout.failed", publicBase, sendWebhook);
  return back(paid ? checkout.successUrl : failureUrl);
}
