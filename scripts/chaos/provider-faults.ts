import { randomInt } from "node:crypto";
import type { Db } from "../../lib/db/client";
import { startStripeSimulator, type SimulatorFault, type StripeSimulator } from "../../simulators/card/stripe-simulator";

/**
 * Provider faults for `npm run chaos`: the gateways and the worker reach the card provider
 * through the Stripe adapter and the simulator of Stripe's wire protocol (the sandbox's books
 * behind it, served by the chaos process on its own port), and every few seconds the next
 * money call of one kind suffers a fault: a 500, a reset or a timeout, before or after the
 * provider applied the change. The gateway answers 503 provider_unavailable (contract), the
 * client retries with its Idempotency-Key, reconciliation settles what stayed unknown, and the
 * audit's card_books_agree_with_payment and provider_operations_settled invariants check that
 * the books on both sides still agree.
 */
const FAULTS: SimulatorFault[] = ["error_500", "reset_before", "reset_after", "timeout_before", "timeout_after"];
const CALLS: { name: string; match: RegExp }[] = [
  { name: "create intent", match: /^POST \/v1\/payment_intents$/ },
  { name: "capture", match: /^POST \/v1\/payment_intents\/[^/]+\/capture$/ },
  { name: "cancel", match: /^POST \/v1\/payment_intents\/[^/]+\/cancel$/ },
  { name: "refund", match: /^POST \/v1\/refunds$/ },
];

export interface ProviderFaults {
  /** For every gateway and worker process (and this one): the card provider is the simulator. */
  env: Record<string, string>;
  injected: Map<string, number>;
  describe(): string;
  /** Injects one fault every `everyMs` (randomized) until `until()`. */
  run(options: { everyMs: number; until: () => boolean }): Promise<void>;
  close(): Promise<void>;
}

export async function startProviderFaults(options: { db: () => Promise<Db>; port: number }): Promise<ProviderFaults> {
  const simulator: StripeSimulator = await startStripeSimulator({ db: options.db, port: options.port });
  const injected = new Map<string, number>();
  return {
    // A short provider timeout: a hung call costs the client seconds, not the default 10.
    env: { CARD_PROVIDER_API_URL: simulator.url, PROVIDER_CALL_TIMEOUT_MS: "3000" },
    injected,
    describe: () =>
      injected.size === 0
        ? `card provider = Stripe simulator on ${simulator.url}, no fault injected yet`
        : `${[...injected.values()].reduce((sum, n) => sum + n, 0)} injected (${[...injected].map(([what, n]) => `${what} ${n}`).join(", ")})`,
    async run({ everyMs, until }) {
      while (!until()) {
        await new Promise((resolve) => setTimeout(resolve, everyMs * (0.5 + Math.random())));
        const call = CALLS[randomInt(CALLS.length)]!;
        const fault = FAULTS[randomInt(FAULTS.length)]!;
        simulator.inject(call.match, fault);
        const what = `${call.name}:${fault}`;
        injected.set(what, (injected.get(what) ?? 0) + 1);
      }
    },
    close: () => simulator.close(),
  };
}
