import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { eq, sql } from "drizzle-orm";
import { getGatewayKey } from "../../lib/crypto/gateway-key";
import type { Db } from "../../lib/db/client";
import {
  cardProviderIdempotencyKeys,
  cardProviderPaymentIntents,
  cardProviderPaymentMethods,
  cardProviderRefunds,
} from "../card/card-tables";
import { publishableKeyOfSandboxSecret } from "../../lib/providers/card/card-provider-accounts";
import { sandboxCardProvider } from "./sandbox-card-provider";
import { CardProviderError } from "../../lib/providers/card/card-provider-error";
import { intentClientSecret } from "./sandbox-secrets";
import { createFaultHook, type SimulatorFault } from "../fault-hook";

/*
 * The sandbox card provider as Stripe's wire protocol, for the subset the Stripe adapter uses:
 * form-encoded `/v1/...` requests authenticated by a secret key, Stripe's object and error
 * shapes, an Idempotency-Key on every POST. Its state is the sandbox provider's books (the
 * same intents the hosted page's browser API confirms), so the sandbox runs the production
 * adapter unchanged. Fault injection (tests) sits in front of it.
 */

type Params = Record<string, unknown>;
export interface SimulatorAnswer {
  status: number;
  body: unknown;
}

class StripeWireError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Parses Stripe's form encoding (`metadata[paymentId]=...`, `expand[0]=...`) into nested objects. */
export function parseStripeForm(text: string): Params {
  const out: Params = {};
  for (const [rawKey, value] of new URLSearchParams(text)) {
    const parts = rawKey.split("[").map((part) => part.replace(/]$/, ""));
    let node = out as Record<string, unknown>;
    for (let index = 0; index < parts.length - 1; index += 1) {
      const part = parts[index]!;
      node[part] ??= {};
      node = node[part] as Record<string, unknown>;
    }
    node[parts[parts.length - 1]!] = value;
  }
  return out;
}

const listOf = (value: unknown): string[] =>
  value && typeof value === "object" ? Object.values(value as Record<string, string>) : [];

export function wireError(error: unknown): SimulatorAnswer {
  if (error instanceof StripeWireError)
    return { status: error.status, body: { error: { type: error.type, code: error.code, message: error.message } } };
  if (error instanceof CardProviderError) {
    const type = error.httpStatus === 402 ? "card_error" : "invalid_request_error";
    return { status: error.httpStatus, body: { error: { type, code: error.code, message: error.message } } };
  }
  return { status: 500, body: { error: { type: "api_error", message: "An unexpected error occurred." } } };
}

type IntentRow = typeof cardProviderPaymentIntents.$inferSelect;

const STRIPE_ERROR_CODES: Record<string, { code: string; decline_code?: string }> = {
  card_declined: { code: "card_declined", decline_code: "generic_decline" },
  insufficient_funds: { code: "card_declined", decline_code: "insufficient_funds" },
  authentication_failed: { code: "payment_intent_authentication_failure" },
};

async function intentObject(db: Db, row: IntentRow, expand: string[]) {
  const gatewayKey = await getGatewayKey(db);
  const [refunded] = await db
    .select({ total: sql<number>`coalesce(sum(${cardProviderRefunds.amountMinor}), 0)::int` })
    .from(cardProviderRefunds)
    .where(eq(cardProviderRefunds.paymentIntentId, row.id));
  const chargeId = row.paymentMethodId ? `ch_${row.id.slice(3)}` : null;
  const error = row.lastErrorCode ? STRIPE_ERROR_CODES[row.lastErrorCode] : null;
  return {
    id: row.id,
    object: "payment_intent",
    amount: row.amountMinor,
    amount_capturable: row.amountCapturableMinor,
    amount_received: row.amountReceivedMinor,
    capture_method: row.captureMethod,
    client_secret: intentClientSecret(gatewayKey, row.id),
    created: Math.floor(row.createdAt.getTime() / 1000),
    currency: row.currency.toLowerCase(),
    customer: row.customerRef,
    last_payment_error: error
      ? { type: "card_error", ...error, message: `The card was refused (${row.lastErrorCode}).` }
      : null,
    latest_charge:
      chargeId && expand.includes("latest_charge")
        ? { id: chargeId, object: "charge", amount_refunded: refunded?.total ?? 0 }
        : chargeId,
    livemode: false,
    metadata: row.metadata,
    next_action: row.status === "requires_action" ? { type: "use_stripe_sdk" } : null,
    payment_method: row.paymentMethodId,
    setup_future_usage: row.setupFutureUsage ? "off_session" : null,
    status: row.status,
  };
}

async function methodObject(row: typeof cardProviderPaymentMethods.$inferSelect) {
  return {
    id: row.id,
    object: "payment_method",
    type: "card",
    card: {
      brand: row.brand.toLowerCase(),
      last4: row.last4,
      exp_month: row.expMonth,
      exp_year: row.expYear,
      fingerprint: row.fingerprint,
    },
    customer: row.detachedAt ? null : row.customerRef,
    livemode: false,
  };
}

const missing = (kind: string, id: string) =>
  new StripeWireError(404, "invalid_request_error", "resource_missing", `No such ${kind}: '${id}'`);

async function ownIntent(db: Db, id: string, account: string): Promise<IntentRow> {
  const [row] = await db.select().from(cardProviderPaymentIntents).where(eq(cardProviderPaymentIntents.id, id));
  if (!row || row.accountKey !== account) throw missing("payment_intent", id);
  return row;
}

/** The idempotent answer of a POST that changes nothing in the books (customers). */
async function remembered(db: Db, key: string, operation: string, make: () => Params): Promise<Params> {
  await db.insert(cardProviderIdempotencyKeys).values({ key, operation, response: make() }).onConflictDoNothing();
  const [row] = await db.select().from(cardProviderIdempotencyKeys).where(eq(cardProviderIdempotencyKeys.key, key));
  return row!.response;
}

/** One request of Stripe's API, answered from the sandbox books. */
export async function handleStripeRequest(
  db: Db,
  request: { method: string; path: string; query: string; body: string; headers: Record<string, string | undefined> },
): Promise<SimulatorAnswer> {
  try {
    if (request.method === "POST" && /^\/v1\/payment_intents\/[^/]+\/confirm$/.test(request.path)) {
      return await confirmFromBrowser(db, request.path.split("/")[3]!, parseStripeForm(request.body), {
        anyReturnUrl: true,
        locale: "en",
      });
    }
    const secret = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
    const account = publishableKeyOfSandboxSecret(await getGatewayKey(db), secret);
    if (!account)
      throw new StripeWireError(401, "invalid_request_error", "api_key_invalid", "Invalid API Key provided.");
    const params = parseStripeForm(request.method === "GET" ? request.query : request.body);
    const key = request.headers["idempotency-key"];
    if (request.method === "POST" && !key)
      throw new StripeWireError(
        400,
        "invalid_request_error",
        "idempotency_key_required",
        "This simulator requires an Idempotency-Key on every POST.",
      );
    const idempotencyKey = `${account}:${key}`;
    const segments = request.path.replace(/^\/v1\//, "").split("/");
    const routePath = segments.map((segment, index) => (index % 2 === 1 ? ":id" : segment)).join("/");
    const route = `${request.method} ${routePath}`;
    const id = segments[1] ?? "";
    const ref = { serviceId: "", country: "" }; // The sandbox books name the account by its key.

    switch (route) {
      case "POST customers": {
        const customerId = `cus_${createHash("sha256").update(idempotencyKey).digest("hex").slice(0, 24)}`;
        const customer = () => ({ id: customerId, object: "customer", metadata: params.metadata ?? {} });
        return { status: 200, body: await remembered(db, idempotencyKey, "customer", customer) };
      }
      case "POST payment_intents": {
        const amount = Number(params.amount);
        if (!Number.isInteger(amount) || amount <= 0)
          throw new StripeWireError(400, "invalid_request_error", "parameter_invalid_integer", "Invalid amount.");
        const intent = await sandboxCardProvider.createPaymentIntent(db, {
          account: ref,
          publishableKey: account,
          idempotencyKey,
          amountMinor: amount,
          currency: String(params.currency ?? "").toUpperCase(),
          captureMethod: params.capture_method === "manual" ? "manual" : "automatic",
          customerRef: typeof params.customer === "string" ? params.customer : "",
          metadata: (params.metadata as Record<string, string>) ?? {},
        });
        return { status: 200, body: await intentObject(db, await ownIntent(db, intent.id, account), []) };
      }
      case "GET payment_intents/:id":
        return { status: 200, body: await intentObject(db, await ownIntent(db, id, account), listOf(params.expand)) };
      case "POST payment_intents/:id/capture": {
        const intent = await ownIntent(db, id, account);
        const amount =
          params.amount_to_capture === undefined ? intent.amountCapturableMinor : Number(params.amount_to_capture);
        await sandboxCardProvider.capturePaymentIntent(db, { id, amountMinor: amount, idempotencyKey, account: ref });
        return { status: 200, body: await intentObject(db, await ownIntent(db, id, account), []) };
      }
      case "POST payment_intents/:id/cancel":
        await ownIntent(db, id, account);
        await sandboxCardProvider.cancelPaymentIntent(db, { id, idempotencyKey, account: ref });
        return { status: 200, body: await intentObject(db, await ownIntent(db, id, account), []) };
      case "POST refunds": {
        const intentId = String(params.payment_intent ?? "");
        const intent = await ownIntent(db, intentId, account);
        const remaining = intent.amountReceivedMinor - intent.amountRefundedMinor;
        const amount = params.amount === undefined ? remaining : Number(params.amount);
        const { refundId } = await sandboxCardProvider.refundPaymentIntent(db, {
          id: intentId,
          amountMinor: amount,
          idempotencyKey,
          account: ref,
        });
        const [refund] = await db.select().from(cardProviderRefunds).where(eq(cardProviderRefunds.id, refundId));
        return {
          status: 200,
          body: {
            id: refundId,
            object: "refund",
            amount: refund?.amountMinor ?? amount,
            payment_intent: intentId,
            status: "succeeded",
          },
        };
      }
      case "GET payment_methods/:id": {
        const [method] = await db
          .select()
          .from(cardProviderPaymentMethods)
          .where(eq(cardProviderPaymentMethods.id, id));
        if (!method || method.accountKey !== account) throw missing("payment_method", id);
        return { status: 200, body: await methodObject(method) };
      }
      case "POST payment_methods/:id/detach": {
        const [method] = await db
          .select()
          .from(cardProviderPaymentMethods)
          .where(eq(cardProviderPaymentMethods.id, id));
        if (!method || method.accountKey !== account) throw missing("payment_method", id);
        await sandboxCardProvider.detachPaymentMethod(db, { id, idempotencyKey, account: ref });
        const [after] = await db.select().from(cardProviderPaymentMethods).where(eq(cardProviderPaymentMethods.id, id));
        return { status: 200, body: await methodObject(after!) };
      }
      default:
        throw new StripeWireError(
          404,
          "invalid_request_error",
          "resource_missing",
          `Unrecognized request URL (${request.method}: ${request.path}).`,
        );
    }
  } catch (error) {
    return wireError(error);
  }
}

/**
 * POST /v1/payment_intents/:id/confirm as Stripe.js sends it from the browser: publishable key
 * (`key`) and client secret, `payment_method_data[card][...]` or a saved `payment_method`; a
 * refused card is a 402 with the intent, 3DS a `requires_action` with a `redirect_to_url`.
 */
export async function confirmFromBrowser(
  db: Db,
  intentId: string,
  params: Params,
  where: { anyReturnUrl: boolean; locale: string },
): Promise<SimulatorAnswer> {
  const publishableKey = typeof params.key === "string" ? params.key : "";
  if (!publishableKey)
    throw new StripeWireError(401, "invalid_request_error", "api_key_invalid", "No publishable key provided.");
  const card = (params.payment_method_data as { card?: Record<string, string> } | undefined)?.card;
  const saved = typeof params.payment_method === "string" ? { id: params.payment_method } : null;
  const paymentMethod = card
    ? {
        card: {
          number: `${card.number}`,
          expMonth: Number(card.exp_month),
          expYear: Number(card.exp_year),
          cvc: `${card.cvc}`,
        },
      }
    : saved;
  if (!paymentMethod)
    throw new StripeWireError(
      400,
      "invalid_request_error",
      "parameter_missing",
      "Give payment_method or payment_method_data.",
    );
  const result = await sandboxCardProvider.confirmPaymentIntent(db, {
    intentId,
    publishableKey,
    clientSecret: String(params.client_secret ?? ""),
    paymentMethod,
    setupFutureUsage: params.setup_future_usage === "off_session" || params.setup_future_usage === "on_session",
    returnUrl: String(params.return_url ?? ""),
    ...where,
  });
  const redirect = result.redirectUrl
    ? { type: "redirect_to_url", redirect_to_url: { url: result.redirectUrl, return_url: `${params.return_url}` } }
    : null;
  const answer = {
    ...(await intentObject(db, await ownIntent(db, result.id, publishableKey), [])),
    next_action: redirect,
  };
  if (!result.lastErrorCode) return { status: 200, body: answer };
  const error = {
    type: "card_error",
    ...STRIPE_ERROR_CODES[result.lastErrorCode],
    message: "Your card was declined.",
    payment_intent: answer,
  };
  return { status: 402, body: { error } };
}

export type { SimulatorFault } from "../fault-hook";

export interface StripeSimulator {
  url: string;
  /** The next request whose "METHOD /v1/path" matches suffers the fault (once). */
  inject(match: RegExp, fault: SimulatorFault): void;
  /** Requests seen, as "METHOD /v1/path" (tests count provider calls). */
  requests: string[];
  close(): Promise<void>;
}

/** Serves the simulator over HTTP (the Stripe SDK's host, port and protocol point here). */
export async function startStripeSimulator(options: {
  db: () => Promise<Db>;
  port?: number;
  host?: string;
  stripeJs?: () => string; // `npm run card-simulator`: the Stripe.js stand-in at /v3, as js.stripe.com serves it
}): Promise<StripeSimulator> {
  const faults = createFaultHook();
  const requests: string[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? "/", "http://simulator");
    if (options.stripeJs && req.method === "GET" && url.pathname === "/v3")
      return void res.writeHead(200, { "content-type": "text/javascript" }).end(options.stripeJs());
    const line = `${req.method} ${url.pathname}`;
    requests.push(line);
    const fault = faults.take(line);
    if (fault === "reset_before") return req.socket.destroy();
    if (fault === "timeout_before") return void hanging.add(res);
    if (fault === "error_500")
      return send(res, { status: 500, body: { error: { type: "api_error", message: "Simulated outage." } } });
    const answer = await handleStripeRequest(await options.db(), {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.search.slice(1),
      body: Buffer.concat(chunks).toString("utf8"),
      headers: req.headers as Record<string, string | undefined>,
    });
    if (fault === "reset_after") return req.socket.destroy();
    if (fault === "timeout_after") return void hanging.add(res);
    send(res, answer);
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    inject: (match, fault) => faults.inject(match, fault),
    requests,
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// CORS as api.stripe.com answers: any page's Stripe.js may read the answer.
const answerHeaders = () => ({
  "content-type": "application/json",
  "request-id": `req_${Date.now().toString(36)}`,
  "access-control-allow-origin": "*",
});

function send(res: ServerResponse, answer: SimulatorAnswer) {
  res.writeHead(answer.status, answerHeaders());
  res.end(JSON.stringify(answer.body));
}

/**
 * The simulator as a fetch-style handler, for a server of several simulators (simulators/fault-hook.ts, the
 * chaos run).
 */
export function stripeSimulatorHandler(db: () => Promise<Db>): (request: Request) => Promise<Response> {
  return async (request) => {
    const url = new URL(request.url);
    const answer = await handleStripeRequest(await db(), {
      method: request.method,
      path: url.pathname,
      query: url.search.slice(1),
      body: await request.text(),
      headers: Object.fromEntries(request.headers),
    });
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: answerHeaders() });
  };
}

/** What a fault's 500 answers on Stripe's wire. */
export const STRIPE_OUTAGE_BODY = JSON.stringify({ error: { type: "api_error", message: "Simulated outage." } });
