import http from "node:http";
import https from "node:https";
import { performance } from "node:perf_hooks";
import {
  assertUrlAllowed,
  guardedLookup,
  sandboxWebhookPolicy,
  WebhookRefusedError,
  type WebhookPolicy,
} from "./webhook-policy";

/** Contract section 7: an attempt that has no answer after 10 s is a failure. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export interface PostWebhookResult {
  /** The receiver's HTTP status; null when none came back (refused, network error, timeout). */
  responseStatus: number | null;
  /** Why the attempt failed, short and free of secrets; null on a 2xx. */
  error: string | null;
  durationMs: number;
  ok: boolean;
}

// Keep-alive sockets make a burst of deliveries to one merchant cheap. One agent pair per
// policy: a socket opened under the sandbox policy must never serve a production request.
const agents = new Map<WebhookPolicy, { http: http.Agent; https: https.Agent }>();

function agentsFor(policy: WebhookPolicy) {
  let pair = agents.get(policy);
  if (!pair) {
    const options = { keepAlive: true, maxSockets: 64, maxFreeSockets: 16, timeout: 30_000 };
    pair = { http: new http.Agent(options), https: new https.Agent(options) };
    agents.set(policy, pair);
  }
  return pair;
}

/**
 * POSTs one webhook. Redirects are never followed (a 3xx is a failure like any non-2xx), and
 * in production the address actually connected to is checked by the lookup, not beforehand.
 */
export function postWebhook(options: {
  url: string;
  headers: Record<string, string>;
  body: string;
  policy?: WebhookPolicy;
  timeoutMs?: number;
}): Promise<PostWebhookResult> {
  const policy = options.policy ?? sandboxWebhookPolicy;
  const timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const started = performance.now();
  const finish = (responseStatus: number | null, error: string | null): PostWebhookResult => ({
    responseStatus,
    error,
    durationMs: Math.round(performance.now() - started),
    ok: error === null,
  });

  let url: URL;
  try {
    url = new URL(options.url);
    assertUrlAllowed(url, policy);
  } catch (error) {
    return Promise.resolve(finish(null, error instanceof WebhookRefusedError ? error.message : "invalid webhook URL"));
  }

  return new Promise((resolve) => {
    let settled = false;
    let current: http.ClientRequest | undefined;
    const settle = (result: PostWebhookResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    // One deadline for the whole attempt, a resend on a fresh socket included.
    const timer = setTimeout(() => {
      settle(finish(null, `timeout: no answer within ${timeoutMs / 1000} s`));
      current?.destroy();
    }, timeoutMs);

    const send = (isResend: boolean) => {
      const secure = url.protocol === "https:";
      const request = (secure ? https : http).request(url, {
        method: "POST",
        agent: secure ? agentsFor(policy).https : agentsFor(policy).http,
        lookup: policy.allowPrivateAddresses ? undefined : guardedLookup(policy),
        headers: {
          ...options.headers,
          "content-type": "application/json",
          "content-length": String(Buffer.byteLength(options.body)),
          "user-agent": "payment-gateway-webhooks/1",
        },
      });
      current = request;
      request.on("response", (response) => {
        const status = response.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        settle(finish(status, ok ? null : describeStatus(status)));
        // Drain (and discard) the body so the socket can serve the next delivery; a receiver
        // that keeps streaming loses the socket.
        response.resume();
        const drainTimer = setTimeout(() => response.destroy(), timeoutMs);
        response.on("close", () => clearTimeout(drainTimer));
      });
      request.on("error", (error: NodeJS.ErrnoException) => {
        // The receiver closed an idle keep-alive socket just as we reused it, so the request
        // (almost surely) never reached it: send once more on a new socket, as Node's docs
        // advise. A rare duplicate is within at-least-once delivery; a lost attempt is not.
        if (!isResend && !settled && request.reusedSocket && (error.code === "ECONNRESET" || error.code === "EPIPE")) {
          send(true);
          return;
        }
        settle(finish(null, describeError(error)));
      });
      request.end(options.body);
    };
    send(false);
  });
}

function describeStatus(status: number): string {
  return status >= 300 && status < 400 ? `HTTP ${status}: redirect not followed` : `HTTP ${status}`;
}

function describeError(error: NodeJS.ErrnoException): string {
  if (error instanceof WebhookRefusedError) return error.message;
  const detail = error.code ?? error.message;
  return `network error: ${detail}`.slice(0, 200);
}
