import type { z } from "zod";
import { timeLimit } from "../../time-limit";
import {
  balanceSchema,
  errorBodySchema,
  operationSchema,
  otpChallengeSchema,
  otpVerifiedSchema,
  qrRequestSchema,
  signWalletRequest,
  SANDBOX_NOW_HEADER,
  type MovementRequest,
  type QrCreateRequest,
  type WalletAccount,
  type WalletErrorBody,
  type WalletErrorName,
  type WalletResponse,
  type WalletTransport,
} from "./wallet-protocol";

/** The wallet answered with one of the protocol's named errors: a definite outcome. */
export class WalletProtocolError extends Error {
  constructor(
    readonly status: number,
    readonly body: WalletErrorBody,
  ) {
    super(`wallet answered ${status} ${body.name}: ${body.message}`);
  }
  get errorName(): WalletErrorName {
    return this.body.name;
  }
}

/**
 * No definite answer: a time-out, a refused connection, a 5xx or a body outside the protocol.
 * For a money call the outcome is unknown until it is looked up by its operationId.
 */
export class WalletUnavailableError extends Error {}

/** The network: one fetch, bounded by the request's signal (the answer's body included). */
export const networkTransport: WalletTransport = async ({ method, url, headers, body, signal }) => {
  const response = await fetch(url, { method, headers, body: body || undefined, signal });
  return { status: response.status, body: await response.text() };
};

/**
 * The transport's answer, or the signal's reason once it aborts. fetch stops at the signal by
 * itself; the sandbox's in-process wallet does not (its statements run on), so without this its
 * calls had no time limit, and a proceed could wait on it longer than on a real wallet.
 */
function untilAborted<T>(answer: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    answer.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

export interface WalletClientOptions {
  /** The wallet's base URL (WALLET_PROVIDER_URL), without /v1. */
  baseUrl: string;
  /** Standard Webhooks secret shared with the wallet (WALLET_PROVIDER_SECRET). */
  secret: string;
  /** How long one call may take before its outcome counts as unknown. */
  timeoutMs: number;
  /** Sandbox only: the service clock the sandbox wallet should read (its clock may run ahead). */
  sandboxNow?: Date;
  /**
   * How a request reaches the wallet: the network (default), or the sandbox wallet in this
   * process (the same signed request and answer text, without the socket and without building
   * a WHATWG Request and Response for each call, which cost about 60 µs a call).
   */
  transport?: WalletTransport;
}

/**
 * The gateway's side of docs/wallet-protocol.openapi.yaml: one method per operation, each
 * request signed, time-limited, and its answer checked against the protocol's schema.
 */
export function walletClient(options: WalletClientOptions) {
  const base = new URL(options.baseUrl.replace(/\/+$/, "") + "/");

  async function call<T>(
    method: "GET" | "POST",
    path: string,
    schema: z.ZodType<T>,
    body?: unknown,
  ): Promise<{ status: number; data: T }> {
    const url = new URL(path.replace(/^\//, ""), base);
    const text = body === undefined ? "" : JSON.stringify(body);
    const headers: Record<string, string> = {
      ...signWalletRequest(options.secret, { method, pathAndQuery: url.pathname + url.search, body: text }),
      accept: "application/json",
    };
    if (text) headers["content-type"] = "application/json";
    if (options.sandboxNow) headers[SANDBOX_NOW_HEADER] = options.sandboxNow.toISOString();
    let response: WalletResponse;
    let answer: unknown;
    const limit = timeLimit(options.timeoutMs);
    try {
      const sent = (options.transport ?? networkTransport)({
        method,
        url: url.href,
        headers,
        body: text,
        signal: limit.signal,
      });
      response = await untilAborted(sent, limit.signal);
      answer = JSON.parse(response.body);
    } catch (error) {
      throw new WalletUnavailableError(`wallet ${method} ${url.pathname} did not answer: ${(error as Error).message}`);
    } finally {
      limit.clear();
    }
    if (response.status >= 500)
      throw new WalletUnavailableError(`wallet ${method} ${url.pathname} answered ${response.status}`);
    if (response.status >= 200 && response.status < 300) {
      const parsed = schema.safeParse(answer);
      if (parsed.success) return { status: response.status, data: parsed.data };
      throw new WalletUnavailableError(`wallet ${method} ${url.pathname} answered outside the protocol`);
    }
    const error = errorBodySchema.safeParse(answer);
    if (!error.success)
      throw new WalletUnavailableError(
        `wallet ${method} ${url.pathname} answered ${response.status} outside the protocol`,
      );
    throw new WalletProtocolError(response.status, error.data.error);
  }

  const data = async <T>(promise: Promise<{ data: T }>) => (await promise).data;
  /** A 404 of the given name is "none", not a failure. */
  const orNull = async <T>(promise: Promise<T>, name: WalletErrorName): Promise<T | null> => {
    try {
      return await promise;
    } catch (error) {
      if (error instanceof WalletProtocolError && error.errorName === name) return null;
      throw error;
    }
  };

  return {
    balance: (query: WalletAccount & { currency: string }) =>
      data(call("GET", `/v1/balances?${new URLSearchParams(query)}`, balanceSchema)),
    debit: (request: MovementRequest) => data(call("POST", "/v1/debits", operationSchema, request)),
    hold: (request: MovementRequest) => data(call("POST", "/v1/holds", operationSchema, request)),
    credit: (request: MovementRequest) => data(call("POST", "/v1/credits", operationSchema, request)),
    captureHold: (holdId: string, request: { operationId: string; amountMinor: number }) =>
      data(call("POST", `/v1/holds/${encodeURIComponent(holdId)}/capture`, operationSchema, request)),
    releaseHold: (holdId: string, request: { operationId: string }) =>
      data(call("POST", `/v1/holds/${encodeURIComponent(holdId)}/release`, operationSchema, request)),
    /** The outcome of a money call, or null when the wallet never applied it. */
    operation: (operationId: string) =>
      orNull(
        data(call("GET", `/v1/operations/${encodeURIComponent(operationId)}`, operationSchema)),
        "unknown_operation",
      ),

    startOtp: (request: {
      paymentId: string;
      account: WalletAccount;
      currency: string;
      amountMinor: number;
      merchantName?: string;
    }) => call("POST", "/v1/otp-challenges", otpChallengeSchema, request),
    otpChallenge: (paymentId: string) =>
      orNull(
        data(call("GET", `/v1/otp-challenges/${encodeURIComponent(paymentId)}`, otpChallengeSchema)),
        "unknown_challenge",
      ),
    resendOtp: (paymentId: string) =>
      data(call("POST", `/v1/otp-challenges/${encodeURIComponent(paymentId)}/resend`, otpChallengeSchema)),
    verifyOtp: (paymentId: string, code: string) =>
      data(call("POST", `/v1/otp-challenges/${encodeURIComponent(paymentId)}/verify`, otpVerifiedSchema, { code })),

    createQr: (request: QrCreateRequest) => call("POST", "/v1/qr-requests", qrRequestSchema, request),
    qrRequest: (qrRequestId: string) =>
      orNull(
        data(call("GET", `/v1/qr-requests/${encodeURIComponent(qrRequestId)}`, qrRequestSchema)),
        "unknown_qr_request",
      ),
    cancelQr: (qrRequestId: string) =>
      data(call("POST", `/v1/qr-requests/${encodeURIComponent(qrRequestId)}/cancel`, qrRequestSchema)),
    /** The sandbox wallet app's answer (a sandbox extension, not part of the protocol). */
    answerQrInSandbox: (qrRequestId: string, outcome: "approve" | "decline") =>
      data(
        call("POST", `/v1/sandbox/qr-requests/${encodeURIComponent(qrRequestId)}/answer`, qrRequestSchema, { outcome }),
      ),
  };
}

export type WalletClient = ReturnType<typeof walletClient>;
