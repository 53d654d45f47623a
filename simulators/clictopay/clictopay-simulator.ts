import { randomInt, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../lib/db/client";
import { clictopayOrders } from "./clictopay-tables";
import { CLICTOPAY_PAGE_CSP, clictopayPaymentPage, type ClictopayPageText } from "./clictopay-payment-page";
import { clictopayPageText } from "./clictopay-page-text";
import { normalizeDigits, passesLuhn } from "../../lib/validation/card-number";

/*
 * ClicToPay as a merchant sees it (Monétique Tunisie's BPC/RBS "payment/rest" interface), for
 * the sandbox: register.do and registerPreAuth.do, getOrderStatusExtended.do, deposit.do,
 * reverse.do and refund.do take form or query parameters and answer JSON with errorCode and
 * errorMessage; the payment page (payment.html?mdOrder=...) takes the card and sends the buyer to
 * returnUrl or failUrl with orderId appended. Amounts in millimes, currency 788.
 */

/** The simulator's one merchant (the gateway's sandbox default, lib/payment-methods/clictopay/clictopay-account.ts). */
export const CLICTOPAY_SANDBOX_MERCHANT = { userName: "SANDBOX_CTP_MERCHANT", password: "sandbox-ctp-password" };

/** Failure modes a test or a rehearsal switches on: the platform down (HTTP 503) or slow (answers after `slowMs`). */
export const clictopayFaults: { mode: "none" | "down" | "slow"; slowMs: number } = { mode: "none", slowMs: 15_000 };

type Json = Record<string, unknown>;
type Order = typeof clictopayOrders.$inferSelect;
const json = (body: Json, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
const ok = { errorCode: "0", errorMessage: "Success" };
const wrongState = { errorCode: "7", errorMessage: "Payment must be in a correct state" };

/** Every request under the simulator's path (`base` is where it is served, e.g. /api/clictopay-sandbox). */
export async function handleClictopayRequest(db: Db, request: Request, base: string): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.slice(base.length);
  const params = new URLSearchParams(url.search);
  if (request.method === "POST")
    new URLSearchParams(await request.text()).forEach((value, name) => params.set(name, value));
  if (path.startsWith("/payment/rest/")) {
    if (clictopayFaults.mode === "down") return json({ error: "Service unavailable" }, 503);
    if (clictopayFaults.mode === "slow") await new Promise((resolve) => setTimeout(resolve, clictopayFaults.slowMs));
    return json(await restCall(db, path.slice("/payment/rest/".length), params, `${url.origin}${base}`));
  }
  if (path === "/payment/merchants/sandbox/payment.html") return paymentPage(db, request.method, params);
  return json({ errorCode: "4", errorMessage: "Unknown call" }, 404);
}

async function restCall(db: Db, call: string, params: URLSearchParams, publicBase: string): Promise<Json> {
  if (
    params.get("userName") !== CLICTOPAY_SANDBOX_MERCHANT.userName ||
    params.get("password") !== CLICTOPAY_SANDBOX_MERCHANT.password
  ) {
    return { errorCode: "5", errorMessage: "Access denied" };
  }
  if (call === "register.do" || call === "registerPreAuth.do")
    return register(db, params, publicBase, call === "register.do" ? "one" : "two");
  const order = await findOrder(db, params.get("orderId") ?? "");
  if (!order) return { errorCode: "6", errorMessage: "Unregistered orderId" };
  switch (call) {
    case "getOrderStatusExtended.do":
      return statusExtended(order);
    case "deposit.do":
      return deposit(db, order, params);
    case "reverse.do":
      return reverse(db, order);
    case "refund.do":
      return refund(db, order, params);
    default:
      return { errorCode: "4", errorMessage: `Unknown call ${call}` };
  }
}

async function register(db: Db, params: URLSearchParams, publicBase: string, phases: "one" | "two"): Promise<Json> {
  const orderNumber = params.get("orderNumber") ?? "";
  const amount = params.get("amount") ?? "";
  const returnUrl = params.get("returnUrl") ?? "";
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(orderNumber))
    return { errorCode: "4", errorMessage: "orderNumber is empty or longer than 32 characters" };
  // Millimes: an integer, never a decimal point.
  if (!/^[1-9]\d*$/.test(amount))
    return { errorCode: "4", errorMessage: "Amount is invalid (millimes, a positive integer)" };
  if (params.get("currency") !== "788") return { errorCode: "3", errorMessage: "Unknown currency" };
  if (!returnUrl) return { errorCode: "4", errorMessage: "returnUrl is empty" };
  const [taken] = await db
    .select({ orderId: clictopayOrders.orderId })
    .from(clictopayOrders)
    .where(
      and(
        eq(clictopayOrders.userName, CLICTOPAY_SANDBOX_MERCHANT.userName),
        eq(clictopayOrders.orderNumber, orderNumber),
      ),
    );
  if (taken) return { errorCode: "1", errorMessage: "Order with this number was already processed" };
  const orderId = randomUUID();
  const language = (params.get("language") ?? "fr").toLowerCase();
  await db.insert(clictopayOrders).values({
    orderId,
    userName: CLICTOPAY_SANDBOX_MERCHANT.userName,
    orderNumber,
    phases,
    amountMinor: Number(amount),
    currency: "788",
    language,
    returnUrl,
    failUrl: params.get("failUrl") || returnUrl,
  });
  return {
    orderId,
    formUrl: `${publicBase}/payment/merchants/sandbox/payment.html?mdOrder=${orderId}&language=${language}`,
  };
}

async function findOrder(db: Db, orderId: string): Promise<Order | null> {
  const [order] = await db.select().from(clictopayOrders).where(eq(clictopayOrders.orderId, orderId));
  return order ?? null;
}

const PAYMENT_STATES: Record<string, string> = {
  "0": "CREATED",
  "1": "APPROVED",
  "2": "DEPOSITED",
  "3": "REVERSED",
  "4": "REFUNDED",
  "6": "DECLINED",
};

function statusExtended(order: Order): Json {
  return {
    ...ok,
    orderNumber: order.orderNumber,
    orderStatus: Number(order.orderStatus),
    actionCode: Number(order.actionCode ?? 0),
    actionCodeDescription: order.actionCodeDescription ?? "",
    amount: order.amountMinor,
    currency: order.currency,
    date: order.createdAt.getTime(),
    cardAuthInfo: order.maskedPan ? { maskedPan: order.maskedPan, approvalCode: order.approvalCode } : undefined,
    paymentAmountInfo: {
      paymentState: PAYMENT_STATES[order.orderStatus] ?? "CREATED",
      approvedAmount: order.approvedMinor,
      depositedAmount: order.depositedMinor,
      refundedAmount: order.refundedMinor,
    },
  };
}

// amount=0 deposits the whole pre-authorization (as RBS documents); less deposits part and lets the rest go.
async function deposit(db: Db, order: Order, params: URLSearchParams): Promise<Json> {
  const amount = Number(params.get("amount") ?? "0");
  if (!Number.isInteger(amount) || amount < 0 || amount > order.approvedMinor)
    return { errorCode: "5", errorMessage: "Invalid amount" };
  if (order.orderStatus !== "1") return wrongState;
  // Conditional on the state, as the provider's own books are: of two concurrent calls one wins.
  const [deposited] = await db
    .update(clictopayOrders)
    .set({ orderStatus: "2", depositedMinor: amount === 0 ? order.approvedMinor : amount })
    .where(and(eq(clictopayOrders.orderId, order.orderId), eq(clictopayOrders.orderStatus, "1")))
    .returning({ orderId: clictopayOrders.orderId });
  return deposited ? ok : wrongState;
}

async function reverse(db: Db, order: Order): Promise<Json> {
  if (order.orderStatus !== "1") return wrongState;
  const [reversed] = await db
    .update(clictopayOrders)
    .set({ orderStatus: "3" })
    .where(and(eq(clictopayOrders.orderId, order.orderId), eq(clictopayOrders.orderStatus, "1")))
    .returning({ orderId: clictopayOrders.orderId });
  return reversed ? ok : wrongState;
}

async function refund(db: Db, order: Order, params: URLSearchParams): Promise<Json> {
  const amount = Number(params.get("amount"));
  if (!Number.isInteger(amount) || amount <= 0) return { errorCode: "5", errorMessage: "Invalid amount" };
  // One statement on the order's current books: concurrent refunds each add their amount (none
  // lost), and the one that would pass what was deposited is refused.
  const [refunded] = await db
    .update(clictopayOrders)
    .set({
      refundedMinor: sql`${clictopayOrders.refundedMinor} + ${amount}::int`,
      orderStatus: sql`case when ${clictopayOrders.refundedMinor} + ${amount}::int
        = ${clictopayOrders.depositedMinor} then '4' else '2' end`,
    })
    .where(
      and(
        eq(clictopayOrders.orderId, order.orderId),
        eq(clictopayOrders.orderStatus, "2"),
        sql`${clictopayOrders.refundedMinor} + ${amount}::int <= ${clictopayOrders.depositedMinor}`,
      ),
    )
    .returning({ orderId: clictopayOrders.orderId });
  return refunded ? ok : wrongState;
}

/** The section 9 cards: what each does on ClicToPay's page. */
const CARD_OUTCOMES: Record<string, "pay" | "decline" | "insufficient" | "challenge"> = {
  "4242424242424242": "pay",
  "5555555555554444": "pay",
  "4000000000000002": "decline",
  "4000000000009995": "insufficient",
  "4000000000003220": "challenge",
};

const DECLINES = {
  decline: { actionCode: "2003", desc: "Transaction refusée" },
  insufficient: { actionCode: "116", desc: "Provision insuffisante" },
  canceled: { actionCode: "-2006", desc: "Paiement annulé par le client" },
  challenge_failed: { actionCode: "-2006", desc: "Échec de l'authentification 3-D Secure" },
} as const;

async function paymentPage(db: Db, method: string, params: URLSearchParams): Promise<Response> {
  const order = await findOrder(db, params.get("mdOrder") ?? "");
  if (!order) return new Response("Unknown order", { status: 404, headers: { "content-type": "text/plain" } });
  const text: ClictopayPageText = clictopayPageText(order.language);
  const html = (body: string) =>
    new Response(body, {
      status: 200,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "content-security-policy": CLICTOPAY_PAGE_CSP,
      },
    });
  const back = (url: string) => {
    const target = new URL(url);
    target.searchParams.set("orderId", order.orderId);
    return new Response(null, { status: 303, headers: { location: target.toString(), "cache-control": "no-store" } });
  };
  if (order.orderStatus !== "0")
    return back(order.orderStatus === "1" || order.orderStatus === "2" ? order.returnUrl : order.failUrl);
  // Millimes shown as dinars with their three decimals: 1234 is 1.234 TND, never rounded.
  const amount = `${Math.floor(order.amountMinor / 1000)}.${String(order.amountMinor % 1000).padStart(3, "0")} TND`;
  if (method !== "POST")
    return html(
      clictopayPaymentPage({
        text,
        order: order.orderId,
        amount,
        language: order.language,
        mode: order.challenge ? "challenge" : "card",
      }),
    );

  const action = params.get("action");
  const decline = async (kind: keyof typeof DECLINES) => {
    await db
      .update(clictopayOrders)
      .set({
        orderStatus: "6",
        actionCode: DECLINES[kind].actionCode,
        actionCodeDescription: DECLINES[kind].desc,
        challenge: null,
      })
      .where(eq(clictopayOrders.orderId, order.orderId));
    return back(order.failUrl);
  };
  const pay = async (pan: string) => {
    const held = order.phases === "two";
    await db
      .update(clictopayOrders)
      .set({
        orderStatus: held ? "1" : "2",
        approvedMinor: order.amountMinor,
        depositedMinor: held ? 0 : order.amountMinor,
        actionCode: "0",
        actionCodeDescription: "Request processed successfully",
        approvalCode: String(randomInt(100000, 999999)),
        maskedPan: pan,
        challenge: null,
      })
      .where(eq(clictopayOrders.orderId, order.orderId));
    return back(order.returnUrl);
  };
  if (action === "cancel") return decline("canceled");
  if (order.challenge) return action === "complete" ? pay(order.challenge) : decline("challenge_failed");

  const digits = normalizeDigits(params.get("cardNumber") ?? "");
  const expiry = /^(0[1-9]|1[0-2])\/?(\d{2})$/.exec((params.get("expiry") ?? "").replace(/\s/g, ""));
  const problem =
    !passesLuhn(digits) || digits.length < 13
      ? text.badCard
      : !expiry
        ? text.badExpiry
        : !/^\d{3}$/.test(params.get("cvc") ?? "")
          ? text.badCvc
          : null;
  if (problem)
    return html(
      clictopayPaymentPage({
        text,
        order: order.orderId,
        amount,
        language: order.language,
        mode: "card",
        error: problem,
      }),
    );
  const pan = `${digits.slice(0, 6)}**${digits.slice(-4)}`;
  switch (CARD_OUTCOMES[digits] ?? "pay") {
    case "pay":
      return pay(pan);
    case "decline":
      return decline("decline");
    case "insufficient":
      return decline("insufficient");
    case "challenge":
      await db.update(clictopayOrders).set({ challenge: pan }).where(eq(clictopayOrders.orderId, order.orderId));
      return html(
        clictopayPaymentPage({ text, order: order.orderId, amount, language: order.language, mode: "challenge" }),
      );
  }
}
