import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { walletClient, WalletUnavailableError } from "../../lib/providers/wallet/http-wallet-client";
import type { WalletRequest, WalletResponse } from "../../lib/providers/wallet/wallet-protocol";

// A pending timer keeps the request it was started in alive (its async context), so a wallet
// call must bound itself without leaving a timer behind once it has its answer.
const secret = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
const query = { merchantId: "m1", customerId: "c1", currency: "DZD" };
const balance = { currency: "DZD", balanceMinor: 500, heldMinor: 0, availableMinor: 500 };

/** Answers like fetch does: with the response, or rejects when the request's signal aborts. */
function walletAnsweringAfter(ms: number | null) {
  return (request: WalletRequest) =>
    new Promise<WalletResponse>((resolve, reject) => {
      request.signal.addEventListener("abort", () => reject(request.signal.reason));
      if (ms !== null) setTimeout(() => resolve({ status: 200, body: JSON.stringify(balance) }), ms);
    });
}

/** Answers after `ms` whatever the signal says, as the sandbox's in-process wallet does. */
function walletIgnoringTheSignal(ms: number) {
  return () =>
    new Promise<WalletResponse>((resolve) =>
      setTimeout(() => resolve({ status: 200, body: JSON.stringify(balance) }), ms),
    );
}

describe("a wallet call's time limit", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("answers with the wallet's balance and leaves no timer behind", async () => {
    const client = walletClient({
      baseUrl: "http://wallet.test",
      secret,
      timeoutMs: 10_000,
      transport: walletAnsweringAfter(5),
    });
    const answer = client.balance(query);
    await vi.advanceTimersByTimeAsync(1);
    expect(vi.getTimerCount()).toBe(2); // the wallet's answer on its way, and the call's limit
    await vi.advanceTimersByTimeAsync(4);
    await expect(answer).resolves.toEqual(balance);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("counts a wallet silent past the limit as unavailable, and then leaves no timer either", async () => {
    const client = walletClient({
      baseUrl: "http://wallet.test",
      secret,
      timeoutMs: 2_000,
      transport: walletAnsweringAfter(null),
    });
    const answer = client.balance(query);
    const outcome = answer.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    const error = await outcome;
    expect(error).toBeInstanceOf(WalletUnavailableError);
    expect((error as Error).message).toMatch(/did not answer: timed out after 2000 ms/);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("holds for a transport that does not listen to the signal: the call ends at the limit", async () => {
    const client = walletClient({
      baseUrl: "http://wallet.test",
      secret,
      timeoutMs: 2_000,
      transport: walletIgnoringTheSignal(60_000),
    });
    const outcome = client.balance(query).catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(2_000);
    const error = await outcome;
    expect(error).toBeInstanceOf(WalletUnavailableError);
    expect((error as Error).message).toMatch(/did not answer: timed out after 2000 ms/);
    expect(vi.getTimerCount()).toBe(1); // only the wallet's own late answer, which nobody waits for
  });

  it("answers a slow but timely transport that does not listen to the signal", async () => {
    const client = walletClient({
      baseUrl: "http://wallet.test",
      secret,
      timeoutMs: 2_000,
      transport: walletIgnoringTheSignal(1_500),
    });
    const answer = client.balance(query);
    await vi.advanceTimersByTimeAsync(1_500);
    await expect(answer).resolves.toEqual(balance);
    expect(vi.getTimerCount()).toBe(0);
  });
});
