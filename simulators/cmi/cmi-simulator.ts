import { createHash, randomInt } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../lib/db/client";
import { normalizeDigits, passesLuhn } from "../../lib/validation/card-number";
import { cmiOrders } from "./cmi-tables";
import { CMI_PAGE_CSP, cmiErrorPage, cmiPageText, cmiPaymentPage, cmiReturnPage } from "./cmi-payment-page";

/*
 * CMI as a store sees it (the EST / Nestpay platform CMI runs), for the sandbox:
 *  - POST /fim/est3Dgate: the 3D Pay Hosting form the buyer's browser posts (clientid, oid,
 *    amount "123.45", currency 504, TranType PreAuth or Auth, okUrl, failUrl, callbackUrl, rnd,
 *    hashAlgorithm ver3, HASH...), its hash checked with the store key; answered with the
 *    payment page. Paying posts the callback (server to server) to callbackUrl with the posted
 *    fields and CMI's answer fields (ProcReturnCode, Response, AuthCode, TransId...) signed the
 *    same way, reads the store's answer (ACTION=POSTAUTH captures a PreAuth, APPROVED keeps it,
 *    FAILURE too), then sends the buyer back: a page whose button posts CMI's
 *    answer fields to okUrl or failUrl (which the gateway never reads).
 *  - POST /fim/api: CC5Request XML (Name, Password, ClientId; Type PostAuth | Void | Credit with
 *    OrderId and Total, or Extra/ORDERSTATUS=QUERY), answered with a CC5Response.
 * Its hash is computed here on its own, not with the gateway's code, so the tests compare two
 * implementations of CMI's rule.
 */

/** The simulator's one store (the gateway's sandbox default, lib/payment-methods/cmi/cmi-account.ts). */
export const CMI_SANDBOX_STORE = {
  clientId: "600000001",
  storeKey: "Sandbox|Store\\Key1",
  apiUser: "sandboxapi",
  apiPassword: "sandbox-cmi-api-password",
};

/**
 * Failure modes a test or a rehearsal switches on: CMI down (HTTP 503) or slow (answers after
 * `slowMs`), or only its API down (the gate and its callbacks still working); its callback sent
 * once, twice, or held back until sendCmiCallback (after the buyer's return).
 */
export const cmiFaults: {
  mode: "none" | "down" | "slow" | "api_down";
  slowMs: number;
  callback: "once" | "twice" | "held";
} = { mode: "none", slowMs: 15_000, callback: "once" };

/**
 * How the simulator reaches a store's callbackUrl: over HTTP, or in a sandbox gateway's process
 * (simulators/in-gateway.ts).
 */
export type CmiCallbackSender = (url: string, body: string) => Promise<{ status: number; text: string }>;

/** CMI's callback as a request to the gateway, sent by `toGateway` (over HTTP, or in a sandbox gateway's process). */
export const callbackSender =
  (toGateway: (request: Request) => Promise<Response>): CmiCallbackSender =>
  async (url, body) => {
    const response = await toGateway(
      new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }),
    );
    return { status: response.status, text: (await response.text()).trim() };
  };

export const sendOverHttp: CmiCallbackSender = callbackSender((request) => fetch(request));

type Order = typeof cmiOrders.$inferSelect;

// ver3, CMI's rule: fields but hash/encoding sorted without case, `\` and `|` escaped, joined by `|`, the
// store key last; SHA-512, base64.
const escapeValue = (value: string) => value.split("\\").join("\\\\").split("|").join("\\|");
export function simulatorHash(fields: Record<string, string>, storeKey: string): string {
  const names = Object.keys(fields)
    .filter((name) => name.toLowerCase() !== "hash" && name.toLowerCase() !== "encoding")
    .sort((a, b) => {
      const x = a.toLowerCase();
      const y = b.toLowerCase();
      return x < y ? -1 : x > y ? 1 : 0;
    });
  const plain = `${names.map((name) => escapeValue(fields[name]!)).join("|")}|${escapeValue(storeKey)}`;
  return createHash("sha512").update(plain, "utf8").digest("base64");
}

const html = (body: string, status = 200) =>
  new Response(body, {
    status,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": CMI_PAGE_CSP,
    },
  });
const see = (location: string) =>
  new Response(null, { status: 303, headers: { location, "cache-control": "no-store" } });
const xml = (body: string, status = 200) =>
  new Response(body, { status, headers: { "content-type": "text/xml; charset=utf-8" } });
const decimal = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;

/** Every request under the simulator's path (`base` is where it is served, e.g. /api/cmi-sandbox). */
export async function handleCmiRequest(
  db: Db,
  request: Request,
  base: string,
  sendCallback: CmiCallbackSender,
): Promise<Response> {
  const url = new URL(request.url);
  const path = url.pathname.slice(base.length);
  if (cmiFaults.mode === "api_down" && path === "/fim/api") return xml("<html>Service Unavailable</html>", 503);
  if (cmiFaults.mode === "down")
    return path === "/fim/api" ? xml("<html>Service Unavailable</html>", 503) : html(cmiErrorPage("fr", "503"), 503);
  if (cmiFaults.mode === "slow") await new Promise((resolve) => setTimeout(resolve, cmiFaults.slowMs));
  if (request.method !== "POST") return html(cmiErrorPage("fr", "POST only"), 405);
  const body = await request.text();
  if (path === "/fim/api") return xml(await apiCall(db, body));
  const fields = Object.fromEntries(new URLSearchParams(body));
  if (path === "/fim/est3Dgate") return gate(db, fields, `${base}/fim/pay`);
  if (path === "/fim/pay")
    return pay(
      db,
      url.searchParams.get("clientid") ?? "",
      url.searchParams.get("oid") ?? "",
      fields,
      `${base}/fim/pay`,
      sendCallback,
    );
  return html(cmiErrorPage("fr", "Unknown page"), 404);
}

async function findOrder(db: Db, clientId: string, oid: string): Promise<Order | null> {
  const [order] = await db
    .select()
    .from(cmiOrders)
    .where(and(eq(cmiOrders.clientId, clientId), eq(cmiOrders.oid, oid)));
  return order ?? null;
}

const payAction = (payPath: string, order: { clientId: string; oid: string }) =>
  `${payPath}?clientid=${encodeURIComponent(order.clientId)}&oid=${encodeURIComponent(order.oid)}`;

async function gate(db: Db, fields: Record<string, string>, payPath: string): Promise<Response> {
  const lang = ["fr", "en", "ar"].includes(fields.lang ?? "") ? fields.lang! : "fr";
  const refuse = (reason: string) => html(cmiErrorPage(lang, reason), 400);
  if (fields.clientid !== CMI_SANDBOX_STORE.clientId) return refuse("Unknown clientid");
  if (fields.hashAlgorithm !== "ver3") return refuse("hashAlgorithm must be ver3");
  if ((fields.HASH ?? fields.hash) !== simulatorHash(fields, CMI_SANDBOX_STORE.storeKey))
    return refuse("Hash mismatch");
  if (fields.storetype !== "3D_PAY_HOSTING") return refuse("storetype must be 3D_PAY_HOSTING");
  if (fields.TranType !== "PreAuth" && fields.TranType !== "Auth") return refuse("TranType must be PreAuth or Auth");
  // Dirhams with their two decimals: "123.45", never centimes.
  if (!/^\d+\.\d{2}$/.test(fields.amount ?? "") || Number(fields.amount) <= 0)
    return refuse("amount must be a decimal such as 123.45");
  if (fields.currency !== "504") return refuse("currency must be 504 (MAD)");
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(fields.oid ?? "")) return refuse("oid is missing or invalid");
  if (!fields.okUrl || !fields.failUrl) return refuse("okUrl and failUrl are required");
  const existing = await findOrder(db, fields.clientid, fields.oid!);
  if (existing && existing.status !== "P") return refuse("Order already processed");
  const amountMinor = Math.round(Number(fields.amount) * 100);
  const { HASH: _hash, hash: _lower, ...posted } = fields;
  const values = {
    clientId: fields.clientid,
    oid: fields.oid!,
    tranType: fields.TranType,
    amountMinor,
    currency: "504",
    lang,
    okUrl: fields.okUrl,
    failUrl: fields.failUrl,
    callbackUrl: fields.callbackUrl || null,
    posted,
  };
  if (existing)
    await db
      .update(cmiOrders)
      .set(values)
      .where(and(eq(cmiOrders.clientId, existing.clientId), eq(cmiOrders.oid, existing.oid)));
  else await db.insert(cmiOrders).values(values);
  return html(cmiPaymentPage({ language: lang, action: payAction(payPath, values), amount: `${fields.amount} MAD` }));
}

/** The section 9 cards: what each does on CMI's page (CMI's own ProcReturnCode for the refusals). */
const CARD_OUTCOMES: Record<string, "pay" | "decline" | "insufficient"> = {
  "4242424242424242": "pay",
  "5555555555554444": "pay",
  "4000000000000002": "decline",
  "4000000000009995": "insufficient",
};
const REFUSALS = {
  decline: { code: "05", msg: "Transaction refusée" },
  insufficient: { code: "51", msg: "Provision insuffisante" },
  canceled: { code: "99", msg: "Transaction annulée par le porteur" },
} as const;

async function pay(
  db: Db,
  clientId: string,
  oid: string,
  form: Record<string, string>,
  payPath: string,
  sendCallback: CmiCallbackSender,
): Promise<Response> {
  const order = await findOrder(db, clientId, oid);
  if (!order) return html(cmiErrorPage("fr", "Unknown order"), 404);
  if (order.status !== "P") return see(order.status === "A" || order.status === "C" ? order.okUrl : order.failUrl);
  const where = and(eq(cmiOrders.clientId, order.clientId), eq(cmiOrders.oid, order.oid));
  const finish = async (changes: Partial<Order>) => {
    await db.update(cmiOrders).set(changes).where(where);
    const approved = changes.status === "A" || changes.status === "C";
    if (cmiFaults.callback !== "held") {
      await sendCmiCallback(db, { clientId, oid }, sendCallback);
      if (cmiFaults.callback === "twice") await sendCmiCallback(db, { clientId, oid }, sendCallback);
    }
    // CMI posts its answer fields with the buyer to okUrl or failUrl (its page submits them; here a button
    // does, no script).
    const row = (await findOrder(db, clientId, oid))!;
    return html(
      cmiReturnPage({
        language: order.lang,
        action: approved ? order.okUrl : order.failUrl,
        fields: answerFields(row),
      }),
    );
  };
  const refuse = (kind: keyof typeof REFUSALS, maskedPan: string | null = null) =>
    finish({ status: "D", procReturnCode: REFUSALS[kind].code, errMsg: REFUSALS[kind].msg, maskedPan });
  if (form.action === "cancel") return refuse("canceled");

  const text = cmiPageText(order.lang);
  const digits = normalizeDigits(form.cardNumber ?? "");
  const expiry = /^(0[1-9]|1[0-2])\/?(\d{2})$/.exec((form.expiry ?? "").replace(/\s/g, ""));
  const problem =
    !passesLuhn(digits) || digits.length < 13
      ? text.badCard
      : !expiry
        ? text.badExpiry
        : !/^\d{3}$/.test(form.cvc ?? "")
          ? text.badCvc
          : null;
  if (problem)
    return html(
      cmiPaymentPage({
        language: order.lang,
        action: payAction(payPath, order),
        amount: `${decimal(order.amountMinor)} MAD`,
        error: problem,
      }),
    );
  const maskedPan = `${digits.slice(0, 6)}***${digits.slice(-4)}`;
  const outcome = CARD_OUTCOMES[digits] ?? "pay";
  if (outcome !== "pay") return refuse(outcome, maskedPan);
  const captured = order.tranType === "Auth";
  return finish({
    status: captured ? "C" : "A",
    capturedMinor: captured ? order.amountMinor : 0,
    procReturnCode: "00",
    errMsg: null,
    authCode: String(randomInt(100000, 999999)),
    transId: `${Date.now().toString(36).toUpperCase()}${randomInt(1000, 9999)}`,
    maskedPan,
  });
}

/**
 * What CMI posts after an attempt, to the callback and with the buyer to okUrl / failUrl: the store's fields,
 * CMI's answer, signed (ver3).
 */
function answerFields(row: Order): Record<string, string> {
  const approved = row.procReturnCode === "00";
  const fields: Record<string, string> = {
    ...row.posted,
    ProcReturnCode: row.procReturnCode ?? "99",
    Response: approved ? "Approved" : "Declined",
    mdStatus: "1",
    ErrMsg: row.errMsg ?? "",
    AuthCode: row.authCode ?? "",
    TransId: row.transId ?? "",
    HostRefNum: row.transId ? row.transId.slice(-12) : "",
    maskedCreditCard: row.maskedPan ?? "",
    "EXTRA.TRXDATE": row.createdAt.toISOString().replace(/[-:T]/g, "").slice(0, 14),
  };
  return { ...fields, HASH: simulatorHash(fields, CMI_SANDBOX_STORE.storeKey) };
}

/**
 * Posts the order's callback to the store's callbackUrl (as CMI does after each attempt) and
 * applies its answer: ACTION=POSTAUTH captures a pre-authorization. Exported for the tests and
 * the "held" fault: the callback after the buyer's return, or once more (a replay).
 */
export async function sendCmiCallback(
  db: Db,
  order: { clientId: string; oid: string },
  sendCallback: CmiCallbackSender,
): Promise<string | null> {
  const row = await findOrder(db, order.clientId, order.oid);
  if (!row?.callbackUrl || row.status === "P") return null;
  const fields = answerFields(row);
  let answer: string;
  try {
    const response = await sendCallback(row.callbackUrl, new URLSearchParams(fields).toString());
    answer = response.status === 200 ? response.text : `HTTP ${response.status} ${response.text}`;
  } catch {
    answer = "unreachable";
  }
  const latest = (await findOrder(db, row.clientId, row.oid))!;
  const changes: Partial<Order> = { callbackAnswers: [...latest.callbackAnswers, answer] };
  if (answer === "ACTION=POSTAUTH" && latest.status === "A")
    Object.assign(changes, { status: "C", capturedMinor: latest.amountMinor });
  await db
    .update(cmiOrders)
    .set(changes)
    .where(and(eq(cmiOrders.clientId, row.clientId), eq(cmiOrders.oid, row.oid)));
  return answer;
}

// --- The API: CC5Request in, CC5Response out. ---

const xmlEscape = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
const xmlValue = (doc: string, name: string) => {
  const match = new RegExp(`<${name}>([^<]*)</${name}>`).exec(doc);
  return match
    ? match[1]!
        .trim()
        .replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)))
        .replace(/&amp;/g, "&")
    : "";
};

function cc5Response(
  order: { oid: string; transId?: string | null; authCode?: string | null },
  answer: { ok: boolean; code?: string; msg?: string },
  extra: Record<string, string> = {},
): string {
  const tags = (entries: Record<string, string>) =>
    Object.entries(entries)
      .map(([name, value]) => `<${name}>${xmlEscape(value)}</${name}>`)
      .join("");
  return `<?xml version="1.0" encoding="UTF-8"?><CC5Response>${tags({
    OrderId: order.oid,
    GroupId: order.oid,
    Response: answer.ok ? "Approved" : "Error",
    AuthCode: answer.ok ? (order.authCode ?? "") : "",
    HostRefNum: "",
    ProcReturnCode: answer.ok ? "00" : (answer.code ?? "99"),
    TransId: order.transId ?? "",
    ErrMsg: answer.msg ?? "",
  })}<Extra>${tags(extra)}</Extra></CC5Response>`;
}

async function apiCall(db: Db, doc: string): Promise<string> {
  const oid = xmlValue(doc, "OrderId");
  if (
    xmlValue(doc, "Name") !== CMI_SANDBOX_STORE.apiUser ||
    xmlValue(doc, "Password") !== CMI_SANDBOX_STORE.apiPassword ||
    xmlValue(doc, "ClientId") !== CMI_SANDBOX_STORE.clientId
  ) {
    return cc5Response(
      { oid },
      { ok: false, code: "99", msg: "Authentication failed: wrong API user, password or client id" },
    );
  }
  const order = await findOrder(db, CMI_SANDBOX_STORE.clientId, oid);
  const type = xmlValue(doc, "Type");
  if (!type && xmlValue(doc, "ORDERSTATUS") === "QUERY") {
    if (!order || order.status === "P")
      return cc5Response({ oid }, { ok: false, code: "99", msg: `No record found for ${oid}` });
    return cc5Response(
      order,
      { ok: true },
      {
        ORD_ID: order.oid,
        TRANS_STAT: order.status,
        CHARGE_TYPE_CD: "S",
        // The EST platform answers the status query's amounts in minor units.
        ORIG_TRANS_AMT: String(order.amountMinor),
        CAPTURE_AMT: String(order.capturedMinor),
        REFUND_AMT: String(order.refundedMinor),
        AUTH_CODE: order.authCode ?? "",
        PAN: order.maskedPan ?? "",
        PROC_RET_CD: order.procReturnCode ?? "",
        ERR_MSG: order.errMsg ?? "",
        TRANS_ID: order.transId ?? "",
      },
    );
  }
  if (!order || order.status === "P")
    return cc5Response({ oid }, { ok: false, code: "99", msg: `No record found for ${oid}` });
  const where = and(eq(cmiOrders.clientId, order.clientId), eq(cmiOrders.oid, order.oid));
  const total = xmlValue(doc, "Total");
  const totalMinor = /^\d+\.\d{2}$/.test(total) ? Math.round(Number(total) * 100) : NaN;
  const wrongState = cc5Response(order, { ok: false, code: "99", msg: "Invalid transaction state for this operation" });
  switch (type) {
    case "PostAuth": {
      if (order.status !== "A") return wrongState;
      if (!(totalMinor > 0 && totalMinor <= order.amountMinor))
        return cc5Response(order, { ok: false, code: "99", msg: "Invalid amount" });
      // Conditional on the state, as CMI's own books are: of two concurrent calls one wins.
      const [captured] = await db
        .update(cmiOrders)
        .set({ status: "C", capturedMinor: totalMinor })
        .where(and(where, eq(cmiOrders.status, "A")))
        .returning({ oid: cmiOrders.oid });
      return captured ? cc5Response(order, { ok: true }) : wrongState;
    }
    case "Void": {
      if (order.status !== "A") return wrongState;
      const [voided] = await db
        .update(cmiOrders)
        .set({ status: "V" })
        .where(and(where, eq(cmiOrders.status, "A")))
        .returning({ oid: cmiOrders.oid });
      return voided ? cc5Response(order, { ok: true }) : wrongState;
    }
    case "Credit": {
      if (order.status !== "C") return wrongState;
      if (!(totalMinor > 0 && order.refundedMinor + totalMinor <= order.capturedMinor))
        return cc5Response(order, { ok: false, code: "99", msg: "Invalid amount" });
      // One statement on the order's current books: concurrent credits each count (none lost).
      const [credited] = await db
        .update(cmiOrders)
        .set({ refundedMinor: sql`${cmiOrders.refundedMinor} + ${totalMinor}::int` })
        .where(
          and(
            where,
            eq(cmiOrders.status, "C"),
            sql`${cmiOrders.refundedMinor} + ${totalMinor}::int <= ${cmiOrders.capturedMinor}`,
          ),
        )
        .returning({ oid: cmiOrders.oid });
      return credited
        ? cc5Response(order, { ok: true })
        : cc5Response(order, { ok: false, code: "99", msg: "Invalid amount" });
    }
    default:
      return cc5Response(order, { ok: false, code: "99", msg: `Unknown Type ${type}` });
  }
}
