import type { WalletTransportWrapper } from "@/lib/wallet-connection/wallet-connection";

/**
 * Faults between the gateway and the wallet service, injected at the transport of the wallet
 * client (installWalletTransport), so the HTTP client, the boundary and the wallet's own
 * idempotency all run as in production:
 * - before: the connection resets before the wallet saw the request (nothing applied);
 * - after: the wallet applied the call, the answer is lost (reset);
 * - timeout: the wallet applied the call and never answers (the client's time limit ends it);
 * - 5xx: the wallet answers 503 without applying anything.
 */
export type WalletFault = "before" | "after" | "timeout" | "5xx";

const MONEY_CALL = /\/v1\/(debits|holds|credits|holds\/[^/]+\/(capture|release))$/;

/** Fails the next `times` money calls (POST debit, hold, capture, release, credit) with `fault`. */
export function failingMoneyCalls(fault: WalletFault, times = 1): WalletTransportWrapper & { failed: () => number } {
  let failed = 0;
  const wrapper: WalletTransportWrapper = async (request, next) => {
    if (request.method !== "POST" || !MONEY_CALL.test(new URL(request.url).pathname) || failed >= times)
      return next(request);
    failed += 1;
    switch (fault) {
      case "before":
        throw new TypeError("fetch failed: connect ECONNRESET");
      case "after":
        await next(request);
        throw new TypeError("fetch failed: socket hang up");
      case "timeout":
        await next(request);
        // The wallet may have taken longer than the limit already: then the call ends now.
        if (request.signal.aborted) throw request.signal.reason;
        return new Promise<never>((_, reject) => {
          request.signal.addEventListener("abort", () => reject(request.signal.reason));
        });
      case "5xx":
        return {
          status: 503,
          body: JSON.stringify({ error: { name: "internal_error", message: "The wallet is briefly unavailable." } }),
        };
    }
  };
  return Object.assign(wrapper, { failed: () => failed });
}

/** Drops every call whose path matches (e.g. the QR callback), as a network that loses them. */
export function droppingCalls(path: RegExp): WalletTransportWrapper {
  return async (request, next) => {
    if (path.test(new URL(request.url).pathname)) throw new TypeError("fetch failed: connect ETIMEDOUT");
    return next(request);
  };
}

/**
 * Refuses every money call as a wallet that does not know the account (404 unknown_account: a definite
 * answer, nothing applied).
 */
export function refusingMoneyCalls(): WalletTransportWrapper {
  return async (request, next) => {
    if (request.method !== "POST" || !MONEY_CALL.test(new URL(request.url).pathname)) return next(request);
    return {
      status: 404,
      body: JSON.stringify({ error: { name: "unknown_account", message: "The wallet refused this call." } }),
    };
  };
}
