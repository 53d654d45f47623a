import { randomBytes, randomInt } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../lib/db/client";
import { satimOrders } from "./satim-tables";
import { SATIM_PAGE_CSP, satimPaymentPage, type SatimPageText } from "./satim-payment-page";
import { normalizeDigits, passesLuhn } from "../../lib/validation/card-number";

/*
 * SATIM ePay as a merchant sees it (the BPC "payment/rest" interface SATIM runs), for the
 * sandbox: register.do, confirmOrder.do (and public/acknowledgeTransaction.do), refund.do and
 * getOrderStatusExtended.do take form or query parameters and answer SATIM's JSON; the payment
 * page (payment.html?mdOrder=...) takes the card and sends the buyer to returnUrl or failUrl
 * with orderId appended. Amounts in centimes, currency 012, jsonParams with force_terminal_id
 * and udf1, as SATIM's integration guide describes them.
 */

/** The simulator's one merchant (the gateway's sandbox default, lib/payment-methods/satim/satim-account.ts). */
export const SATIM_SANDBOX_MERCHANT = {
  userName: "SANDBOX_MERCHANT",
  password: "sandbox-password",
  terminalId: "E010900000",
};

/** Failure modes a test or a rehearsal switches on: the platform down (HTTP 503) or slow (answers after `slowMs`). */
export const satimFaults: { mode: "none" | "down" | "slow"; slowMs: number } = { mode: "none", slowMs: 15_000 };

type Json = Record<string, unknown>;
const json = (body: Json, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** Every request under the simulator's path (`base` is where it is served, e.g. /api/satim-sandbox). */
export async function handleSatimRequest(db: Db, request: Request, base: string): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.slice(base.length);
  const params = new URLSearchParams(url.search);
  if (request.method === "POST")
    new URLSearchParams(await request.text()).forEach((value, name) => params.set(name, value));
  if (path.startsWith("/payment/rest/")) {
    if (satimFaults.mode === "down") return json({ error: "Service unavailable" }, 503);
    if (satimFaults.mode === "slow") await new Promise((resolve) => setTimeout(resolve, satimFaults.slowMs));
    return json(await restCall(db, path.slice("/payment/rest/".length), params, `${url.origin}${base}`));
  }
  if (path === "/payment/merchants/sandbox/payment.html") return paymentPage(db, request.method, params);
  return json({ errorCode: "4", errorMessage: "Unknown call" }, 404);
}

async function restCall(db: Db, call: string, params: URLSearchParams, publicBase: string): Promise<Json> {
  const merchant = params.get("userName");
  if (merchant !== SATIM_SANDBOX_MERCHANT.userName || params.get("password") !== SATIM_SANDBOX_MERCHANT.password) {
    return call === "confirmOrder.do" || call === "public/acknowledgeTransaction.do"
      ? { ErrorCode: "5", ErrorMessage: "Access denied" }
      : { errorCode: "5", errorMessage: "Access denied" };
  }
  switch (call) {
    case "register.do":
      return register(db, params, publicBase);
    case "confirmOrder.do":
    case "public/acknowledgeTransaction.do":
      return confirm(db, params.get("orderId") ?? params.get("mdOrder") ?? "");
    case "getOrderStatusExtended.do":
      return statusExtended(db, params.get("orderId") ?? "");
    case "refund.do":
      return refund(db, params);
    default:
      return { errorCode: "4", errorMessage: `Unknown call ${call}` };
  }
}

async function register(db: Db, params: URLSearchParams, publicBase: string): Promise<Json> {
  const orderNumber = params.get("orderNumber") ?? "";
  const amount = params.get("amount") ?? "";
  const returnUrl = params.get("returnUrl") ?? "";
  let extra: Json = {};
  try {
    extra = JSON.parse(params.get("jsonParams") ?? "{}") as Json;
  } catch {
    return { errorCode: "4", errorMessage: "jsonParams is not JSON" };
  }
  if (!/^[A-Za-z0-9]{1,10}$/.test(orderNumber))
    return { errorCode: "4", errorMessage: "orderNumber is empty or longer than 10 characters" };
  if (!/^\d+$/.test(amount) || Number(amount) < 5000)
    return { errorCode: "4", errorMessage: "Amount is invalid (centimes, at least 5000)" };
  if (params.get("currency") !== "012") return { errorCode: "3", errorMessage: "Unknown currency" };
  if (!returnUrl) return { errorCode: "4", errorMessage: "returnUrl is empty" };
  if (extra.force_terminal_id !== SATIM_SANDBOX_MERCHANT.terminalId || typeof extra.udf1 !== "string" || !extra.udf1) {
    return { errorCode: "4", errorMessage: "jsonParams must carry force_terminal_id and udf1" };
  }
  const [taken] = await db
    .select({ orderId: satimOrders.orderId })
    .from(satimOrders)
    .where(and(eq(satimOrders.userName, SATIM_SANDBOX_MERCHANT.userName), eq(satimOrders.orderNumber, orderNumber)));
  if (taken) return { errorCode: "1", errorMessage: "Order with this number was already processed" };
  const orderId = randomBytes(15).toString("base64url").slice(0, 20);
  const language = (params.get("language") ?? "fr").toLowerCase();
  await db.insert(satimOrders).values({
    orderId,
    userName: SATIM_SANDBOX_MERCHANT.userName,
    orderNumber,
    terminalId: String(extra.force_terminal_id),
    udf1: extra.udf1,
    amountMinor: Number(amount),
    currency: "012",
    language,
    returnUrl,
    failUrl: params.get("failUrl") || returnUrl,
  });
  return {
    errorCode: "0",
    orderId,
    formUrl: `${publicBase}/payment/merchants/sandbox/payment.html?mdOrder=${orderId}&language=${language}`,
  };
}

async function findOrder(db: Db, orderId: string) {
  const [order] = await db.select().from(satimOrders).where(eq(satimOrders.orderId, orderId));
  return order ?? null;
}

async function confirm(db: Db, orderId: string): Promise<Json> {
  const order = await findOrder(db, orderId);
  if (!order) return { ErrorCode: "6", ErrorMessage: "Unregistered orderId" };
  const paid = order.orderStatus === "2" || order.orderStatus === "4";
  return {
    ErrorCode: order.orderStatus === "6" ? "2" : "0",
    ErrorMessage: order.orderStatus === "6" ? "Payment is declined" : "Success",
    OrderStatus: Number(order.orderStatus),
    OrderNumber: order.orderNumber,
    Amount: order.amountMinor,
    currency: order.currency,
    depositAmount: paid ? order.amountMinor : 0,
    Pan: order.maskedPan ?? undefined,
    approvalCode: order.approvalCode ?? undefined,
    actionCode: Number(order.actionCode ?? 0),
    actionCodeDescription: order.respCodeDesc ?? "",
    params: {
      respCode: order.orderStatus === "2" ? "00" : (order.actionCode ?? ""),
      respCode_desc: order.respCodeDesc ?? "",
      udf1: order.udf1,
    },
    SvfeResponse: order.orderStatus === "2" ? "00" : undefined,
  };
}

async function statusExtended(db: Db, orderId: string): Promise<Json> {
  const order = await findOrder(db, orderId);
  if (!order) return { errorCode: "6", errorMessage: "Unregistered orderId" };
  const deposited = order.orderStatus === "2" || order.orderStatus === "4" ? order.amountMinor : 0;
  return {
    errorCode: "0",
    errorMessage: "Success",
    orderNumber: order.orderNumber,
    orderStatus: Number(order.orderStatus),
    amount: order.amountMinor,
    currency: order.currency,
    // As the RBS platform answers it: what was approved, deposited and refunded, in centimes.
    paymentAmountInfo: { approvedAmount: deposited, depositedAmount: deposited, refundedAmount: order.refundedMinor },
  };
}

async function refund(db: Db, params: URLSearchParams): Promise<Json> {
  const order = await findOrder(db, params.get("orderId") ?? "");
  if (!order) return { errorCode: "6", errorMessage: "Unregistered orderId" };
  const amount = Number(params.get("amount"));
  if (!Number.isInteger(amount) || amount <= 0) return { errorCode: "5", errorMessage: "Invalid amount" };
  const wrongState = { errorCode: "7", errorMessage: "Payment must be in a correct state" };
  if (order.orderStatus !== "2" || order.refundedMinor + amount > order.amountMinor) return wrongState;
  // One statement on the order's current books: concurrent refunds each add their amount (none
  // lost), and the one that would pass the amount paid is refused.
  const [refunded] = await db
    .update(satimOrders)
    .set({
      refundedMinor: sql`${satimOrders.refundedMinor} + ${amount}::int`,
      orderStatus: sql`case when ${satimOrders.refundedMinor} + ${amount}::int = ${satimOrders.amountMinor}
        then '4' else '2' end`,
    })
    .where(
      and(
        eq(satimOrders.orderId, order.orderId),
        eq(satimOrders.orderStatus, "2"),
        sql`${satimOrders.refundedMinor} + ${amount}::int <= ${satimOrders.amountMinor}`,
      ),
    )
    .returning({ orderId: satimOrders.orderId });
  return refunded ? { errorCode: "0", errorMessage: "Success" } : wrongState;
}

/** The section 9 cards: what each does on SATIM's page. */
const CARD_OUTCOMES: Record<string, "pay" | "decline" | "insufficient" | "challenge"> = {
  "4242424242424242": "pay",
  "5555555555554444": "pay",
  "4000000000000002": "decline",
  "4000000000009995": "insufficient",
  "4000000000003220": "challenge",
};

const DECLINES = {
  decline: { actionCode: "2003", desc: "Votre paiement a été refusé" },
  insufficient: { actionCode: "116", desc: "Solde insuffisant" },
  canceled: { actionCode: "-2006", desc: "Paiement annulé par le client" },
  challenge_failed: { actionCode: "-2006", desc: "Échec de l'authentification 3-D Secure" },
} as const;

async function paymentPage(db: Db, method: string, params: URLSearchParams): Promise<Response> {
  const order = await findOrder(db, params.get("mdOrder") ?? "");
  if (!order) return new Response("Unknown order", { status: 404, headers: { "content-type": "text/plain" } });
  const text = pageText(order.language);
  const html = (body: string) =>
    new Response(body, {
      status: 200,
      headers: {
        "content-type": "text/html; charset=utf-8",
        "cache-control": "no-store",
        "content-security-policy": SATIM_PAGE_CSP,
      },
    });
  const back = (url: string) => {
    const target = new URL(url);
    target.searchParams.set("orderId", order.orderId);
    return new Response(null, { status: 303, headers: { location: target.toString(), "cache-control": "no-store" } });
  };
  if (order.orderStatus !== "0") return back(order.orderStatus === "2" ? order.returnUrl : order.failUrl);
  const amount = `${(order.amountMinor / 100).toFixed(2)} DZD`;
  if (method !== "POST")
    return html(
      satimPaymentPage({
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
      .update(satimOrders)
      .set({
        orderStatus: "6",
        actionCode: DECLINES[kind].actionCode,
        respCodeDesc: DECLINES[kind].desc,
        challenge: null,
      })
      .where(eq(satimOrders.orderId, order.orderId));
    return back(order.failUrl);
  };
  const pay = async (pan: string) => {
    await db
      .update(satimOrders)
      .set({
        orderStatus: "2",
        actionCode: "0",
        respCodeDesc: "Votre paiement a été accepté",
        approvalCode: String(randomInt(100000, 999999)),
        maskedPan: pan,
        challenge: null,
      })
      .where(eq(satimOrders.orderId, order.orderId));
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
      satimPaymentPage({ text, order: order.orderId, amount, language: order.language, mode: "card", error: problem }),
    );
  const pan = `${digits.slice(0, 6)}******${digits.slice(-4)}`;
  switch (CARD_OUTCOMES[digits] ?? "pay") {
    case "pay":
      return pay(pan);
    case "decline":
      return decline("decline");
    case "insufficient":
      return decline("insufficient");
    case "challenge":
      await db.update(satimOrders).set({ challenge: pan }).where(eq(satimOrders.orderId, order.orderId));
      return html(
        satimPaymentPage({ text, order: order.orderId, amount, language: order.language, mode: "challenge" }),
      );
  }
}

function pageText(language: string): SatimPageText {
  switch (language) {
    case "ar":
      return {
        title: "الدفع عبر ساتيم (محاكاة)",
        cardNumber: "رقم البطاقة",
        expiry: "تاريخ انتهاء الصلاحية",
        cvc: "رمز CVC",
        pay: "ادفع",
        cancel: "إلغاء",
        amount: "المبلغ:",
        challenge: "تحقق 3-D Secure",
        complete: "إتمام",
        fail: "فشل",
        badCard: "رقم البطاقة غير صالح.",
        badExpiry: "تاريخ الانتهاء غير صالح (MM/YY).",
        badCvc: "رمز CVC غير صالح.",
      };
    case "fr":
      return {
        title: "Paiement SATIM (simulateur)",
        cardNumber: "Numéro de carte",
        expiry: "Date d'expiration",
        cvc: "CVC",
        pay: "Payer",
        cancel: "Annuler",
        amount: "Montant\u00a0:",
        challenge: "Vérification 3-D Secure",
        complete: "Valider",
        fail: "Échouer",
        badCard: "Numéro de carte invalide.",
        badExpiry: "Date d'expiration invalide (MM/AA).",
        badCvc: "CVC invalide.",
      };
    default:
      return {
        title: "SATIM payment (simulator)",
        cardNumber: "Card number",
        expiry: "Expiry date",
        cvc: "CVC",
        pay: "Pay",
        cancel: "Cancel",
        amount: "Amount:",
        challenge: "3-D Secure verification",
        complete: "Complete",
        fail: "Fail",
        badCard: "The card number is not valid.",
        badExpiry: "The expiry date is not valid (MM/YY).",
        badCvc: "The CVC is not valid.",
      };
  }
}
