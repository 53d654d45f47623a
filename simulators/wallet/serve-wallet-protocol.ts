import { z } from "zod";
import type { Db } from "../../lib/db/client";
import { logger } from "../../lib/log";
import { timeLimit } from "../../lib/time-limit";
import {
  balanceQuerySchema,
  captureRequestSchema,
  movementRequestSchema,
  otpStartRequestSchema,
  otpVerifyRequestSchema,
  qrCreateRequestSchema,
  releaseRequestSchema,
  isSignedWalletRequest,
  signWalletRequest,
  SANDBOX_NOW_HEADER,
  WALLET_ERROR_STATUS,
  type QrRequestBody,
  type WalletErrorName,
  type WalletRequest,
  type WalletResponse,
} from "../../lib/providers/wallet/wallet-protocol";
import { refusal, walletService, WalletServiceError, type Applied } from "./wallet-service";

/**
 * The sandbox wallet's HTTP face, for every path of docs/wallet-protocol.openapi.yaml: a
 * fetch-style handler (Request in, Response out), mounted by the gateway under
 * /api/wallet-sandbox (sandbox only) and by `npm run wallet-sandbox` as a process of its own;
 * and the same answers to the gateway's wallet client in this process (`answer`).
 */
export interface WalletServerOptions {
  db: Db;
  /** The Standard Webhooks secret shared with the gateway (whsec_...). */
  secret: string;
  /** The path the protocol's paths hang under, e.g. "/api/wallet-sandbox"; "" at the root. */
  basePath: string;
  /** What a QR code encodes for a request (a link into the wallet app). */
  qrContent(request: { qrRequestId: string; paymentId: string }): string;
  /** Delays between callback attempts after the first (ms). */
  callbackRetriesMs?: number[];
  /** How a callback reaches the gateway: the network (default), or the gateway's handler in this process. */
  deliverCallback?: (request: Request) => Promise<Response>;
}

const answerSchema = z.strictObject({ outcome: z.enum(["approve", "decline"]) });

type Route = { method: string; pattern: RegExp; run: (call: Call) => Promise<WalletResponse> };
type HeaderReader = { get(name: string): string | null };
interface Call {
  params: string[];
  url: URL;
  body: unknown;
  now: Date;
}

export interface WalletProtocolServer {
  /** Fetch-style, for a socket (the gateway's route, the wallet's own process). */
  handle(request: Request): Promise<Response>;
  /** The same answer to a request made in this process: the in-gateway wallet's transport. */
  answer(request: WalletRequest): Promise<WalletResponse>;
}

/** The sandbox wallet's fetch-style handler (walletProtocolServer's `handle`). */
export function walletProtocolHandler(options: WalletServerOptions): (request: Request) => Promise<Response> {
  return walletProtocolServer(options).handle;
}

export function walletProtocolServer(options: WalletServerOptions): WalletProtocolServer {
  const service = walletService({ db: options.db, qrContent: options.qrContent });
  const retries = options.callbackRetriesMs ?? [1_000, 5_000, 30_000];

  const operationResponse = ({ operation, created }: Applied) => {
    const refused = refusal(operation);
    return refused ? errorResponse(refused) : json(operation, created ? 201 : 200);
  };

  async function postCallback(qr: QrRequestBody, callbackUrl: string, attempt = 0): Promise<void> {
    const body = JSON.stringify({ type: "qr_request.answered", data: qr });
    const url = new URL(callbackUrl);
    let delivered = false;
    const limit = timeLimit(10_000);
    try {
      const headers = signWalletRequest(options.secret, {
        method: "POST",
        pathAndQuery: url.pathname + url.search,
        body,
      });
      const request = new Request(url, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body,
        signal: limit.signal,
      });
      const response = await (options.deliverCallback ?? fetch)(request);
      delivered = response.ok;
    } catch (error) {
      logger.warn({ err: error, qrRequestId: qr.qrRequestId }, "sandbox wallet callback failed");
    } finally {
      limit.clear();
    }
    const delay = retries[attempt];
    if (!delivered && delay !== undefined) {
      setTimeout(() => void postCallback(qr, callbackUrl, attempt + 1), delay).unref();
    }
  }

  const routes: Route[] = [
    {
      method: "GET",
      pattern: /^\/v1\/balances$/,
      run: async ({ url }) =>
        json(await service.balance(parse(balanceQuerySchema, Object.fromEntries(url.searchParams)))),
    },
    {
      method: "POST",
      pattern: /^\/v1\/debits$/,
      run: async (c) => operationResponse(await service.debit(parse(movementRequestSchema, c.body), c.now)),
    },
    {
      method: "POST",
      pattern: /^\/v1\/holds$/,
      run: async (c) => operationResponse(await service.hold(parse(movementRequestSchema, c.body), c.now)),
    },
    {
      method: "POST",
      pattern: /^\/v1\/credits$/,
      run: async (c) => operationResponse(await service.credit(parse(movementRequestSchema, c.body), c.now)),
    },
    {
      method: "POST",
      pattern: /^\/v1\/holds\/([^/]+)\/capture$/,
      run: async (c) =>
        operationResponse(await service.captureHold(c.params[0]!, parse(captureRequestSchema, c.body), c.now)),
    },
    {
      method: "POST",
      pattern: /^\/v1\/holds\/([^/]+)\/release$/,
      run: async (c) =>
        operationResponse(await service.releaseHold(c.params[0]!, parse(releaseRequestSchema, c.body), c.now)),
    },
    {
      method: "GET",
      pattern: /^\/v1\/operations\/([^/]+)$/,
      run: async (c) => json(await service.operation(c.params[0]!)),
    },
    {
      method: "POST",
      pattern: /^\/v1\/otp-challenges$/,
      run: async (c) => {
        const { challenge, created } = await service.startOtp(parse(otpStartRequestSchema, c.body), c.now);
        return json(challenge, created ? 201 : 200);
      },
    },
    {
      method: "GET",
      pattern: /^\/v1\/otp-challenges\/([^/]+)$/,
      run: async (c) => json(await service.otpChallenge(c.params[0]!)),
    },
    {
      method: "POST",
      pattern: /^\/v1\/otp-challenges\/([^/]+)\/resend$/,
      run: async (c) => json(await service.resendOtp(c.params[0]!, c.now)),
    },
    {
      method: "POST",
      pattern: /^\/v1\/otp-challenges\/([^/]+)\/verify$/,
      run: async (c) => json(await service.verifyOtp(c.params[0]!, parse(otpVerifyRequestSchema, c.body).code, c.now)),
    },
    {
      method: "POST",
      pattern: /^\/v1\/qr-requests$/,
      run: async (c) => {
        const { qr, created } = await service.createQr(parse(qrCreateRequestSchema, c.body), c.now);
        return json(qr, created ? 201 : 200);
      },
    },
    {
      method: "GET",
      pattern: /^\/v1\/qr-requests\/([^/]+)$/,
      run: async (c) => json(await service.qrRequest(c.params[0]!)),
    },
    {
      method: "POST",
      pattern: /^\/v1\/qr-requests\/([^/]+)\/cancel$/,
      run: async (c) => json(await service.cancelQr(c.params[0]!, c.now)),
    },
    {
      // Sandbox extension, not part of the protocol: the wallet app's approve / decline.
      method: "POST",
      pattern: /^\/v1\/sandbox\/qr-requests\/([^/]+)\/answer$/,
      run: async (c) => {
        const { qr, callbackUrl } = await service.answerQr(c.params[0]!, parse(answerSchema, c.body).outcome, c.now);
        await postCallback(qr, callbackUrl);
        return json(qr);
      },
    },
  ];

  /** One signed request's answer; `headers` as received (names any case for a Request's). */
  async function respond(method: string, url: URL, headers: HeaderReader, body: string): Promise<WalletResponse> {
    if (!isSignedWalletRequest(options.secret, { method, pathAndQuery: url.pathname + url.search, body, headers })) {
      return errorResponse(
        new WalletServiceError("invalid_signature", "The request's signature is missing, wrong or stale."),
      );
    }
    const path = url.pathname.startsWith(options.basePath) ? url.pathname.slice(options.basePath.length) : url.pathname;
    const candidates = routes.filter((route) => route.pattern.test(path));
    const route = candidates.find((candidate) => candidate.method === method);
    if (!route) {
      const message = candidates.length ? `${method} is not served on ${path}.` : `No protocol path ${path}.`;
      return errorResponse(new WalletServiceError("invalid_request", message), candidates.length ? 405 : 404);
    }
    try {
      const parsedBody = body === "" ? undefined : JSON.parse(body);
      const params = route.pattern.exec(path)!.slice(1).map(decodeURIComponent);
      return await route.run({ params, url, body: parsedBody, now: sandboxNow(headers) });
    } catch (error) {
      if (error instanceof WalletServiceError) return errorResponse(error);
      if (error instanceof SyntaxError)
        return errorResponse(new WalletServiceError("invalid_request", "The body is not JSON."));
      logger.error({ err: error, path }, "sandbox wallet request failed");
      return errorResponse(new WalletServiceError("internal_error", "The wallet could not complete the request."));
    }
  }

  return {
    async handle(request) {
      const body = request.method === "GET" || request.method === "HEAD" ? "" : await request.text();
      const answer = await respond(request.method, new URL(request.url), request.headers, body);
      return new Response(answer.body, {
        status: answer.status,
        headers: { "content-type": "application/json", "cache-control": "no-store" },
      });
    },
    answer(request) {
      // Read as a Request's headers are: by name in any case; a GET's body is none.
      const byName = new Map(Object.entries(request.headers).map(([name, value]) => [name.toLowerCase(), value]));
      const headers: HeaderReader = { get: (name) => byName.get(name.toLowerCase()) ?? null };
      return respond(request.method, new URL(request.url), headers, request.method === "GET" ? "" : request.body);
    },
  };
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new WalletServiceError("invalid_request", `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
}

/** The gateway's sandbox service clock when it sent one (the sandbox clock runs ahead), else now. */
function sandboxNow(headers: HeaderReader): Date {
  const sent = headers.get(SANDBOX_NOW_HEADER);
  const parsed = sent ? new Date(sent) : null;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : new Date();
}

function json(body: unknown, status = 200): WalletResponse {
  return { status, body: JSON.stringify(body) };
}

function errorResponse(error: WalletServiceError, status?: number): WalletResponse {
  const name: WalletErrorName = error.errorName;
  return json({ error: { name, message: error.message, ...error.details } }, status ?? WALLET_ERROR_STATUS[name]);
}
