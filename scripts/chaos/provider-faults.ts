import { randomInt } from "node:crypto";
import type { Db } from "../../lib/db/client";
import { STRIPE_OUTAGE_BODY, stripeSimulatorHandler } from "../../simulators/card/stripe-simulator";
import { SIMULATOR_FAULTS, serveSimulatorsWithFaults, type FaultySimulators } from "../../simulators/fault-hook";
import type { RedirectSimulator } from "../../simulators/redirect-simulator";
import { REDIRECT_SIMULATORS } from "../../simulators/simulator-list";

/**
 * Provider faults for `npm run chaos`: the gateways and the worker reach every card provider
 * over HTTP, through their production adapters, at the simulators of the providers' wire
 * protocols served by the chaos process on one port (Stripe's at /v1, each redirect provider's
 * of simulators/simulator-list.ts under /<name>: /satim, /clictopay, /cmi, /chargily; their books
 * in the run's database). Every few seconds the next money call of one kind, on one rail, suffers a
 * fault: a 500, a reset or a timeout, before or after the provider applied the change. The
 * gateway answers 503 provider_unavailable (or, on the page before a redirect provider's, sends
 * the buyer back to press Pay again), the client retries with its Idempotency-Key,
 * reconciliation settles what stayed unknown, and the audit's invariants check that the books
 * on both sides still agree.
 */
const redirectSimulators = (): [string, RedirectSimulator][] => Object.entries(REDIRECT_SIMULATORS);

interface Rail {
  name: string;
  calls: { name: string; match: RegExp }[];
}

const RAILS: Rail[] = [
  {
    name: "card (Stripe)",
    calls: [
      { name: "create intent", match: /^POST \/v1\/payment_intents$/ },
      { name: "capture", match: /^POST \/v1\/payment_intents\/[^/]+\/capture$/ },
      { name: "cancel", match: /^POST \/v1\/payment_intents\/[^/]+\/cancel$/ },
      { name: "refund", match: /^POST \/v1\/refunds$/ },
    ],
  },
  // Each redirect provider's rail (SATIM, CLICTOPAY, CMI, CHARGILY): its simulator's money calls, under /<name>.
  ...redirectSimulators().map(([name, simulator]) => ({
    name: simulator.process.prefix,
    calls: simulator.moneyCalls.map((call) => ({
      name: call.name,
      match: new RegExp(`^${call.method} /${name}${call.path.source}$`),
    })),
  })),
];

export interface ProviderFaults {
  /** For every gateway and worker process (and this one): each card provider is its simulator, over HTTP. */
  env: Record<string, string>;
  /** Per rail, "call:fault" -> how many were injected (each waits for the next matching call). */
  injected: Map<string, Map<string, number>>;
  describe(): string[];
  /**
   * Injects one fault every `everyMs` (randomized) until `until()`, on a rail chosen at random among `rails`
   * (all by default).
   */
  run(options: { everyMs: number; until: () => boolean; rails?: string[] }): Promise<void>;
  close(): Promise<void>;
}

export async function startProviderFaults(options: { db: () => Promise<Db>; port: number }): Promise<ProviderFaults> {
  const { db } = options;
  const injected = new Map<string, Map<string, number>>(RAILS.map((rail) => [rail.name, new Map()]));
  const applied = new Map<string, number>();
  const served: FaultySimulators = await serveSimulatorsWithFaults({
    port: options.port,
    routes: [
      { prefix: "", errorBody: STRIPE_OUTAGE_BODY, handle: stripeSimulatorHandler(db) },
      // CMI's callback and Chargily's webhook go over HTTP to the gateways (PUBLIC_BASE_URL), as the
      // providers' do: a killed gateway misses them.
      ...redirectSimulators().map(([name, simulator]) => ({
        prefix: `/${name}`,
        errorBody: simulator.failure.body,
        handle: async (request: Request) =>
          simulator.handle(await db(), request, {
            base: `/${name}`,
            toGateway: (outgoing) => fetch(outgoing, { signal: AbortSignal.timeout(10_000) }),
          }),
      })),
    ],
    onFault: (line) => {
      const rail = RAILS.find((candidate) => candidate.calls.some((call) => call.match.test(line)));
      if (rail) applied.set(rail.name, (applied.get(rail.name) ?? 0) + 1);
    },
  });
  return {
    env: {
      CARD_PROVIDER_API_URL: served.url,
      ...Object.fromEntries(
        redirectSimulators().flatMap(([name, simulator]) =>
          Object.entries(simulator.gatewaySettings(`${served.url}/${name}`)),
        ),
      ),
      // A short provider timeout: a hung call costs the client seconds, not the default 10.
      PROVIDER_CALL_TIMEOUT_MS: "3000",
    },
    injected,
    describe: () =>
      [...injected].map(([rail, faults]) => {
        const total = [...faults.values()].reduce((sum, n) => sum + n, 0);
        const list = total ? ` (${[...faults].map(([what, n]) => `${what} ${n}`).join(", ")})` : "";
        return `  ${rail.padEnd(14)} ${total} injected, ${applied.get(rail) ?? 0} met by a call${list}`;
      }),
    async run({ everyMs, until, rails }) {
      const eligible = RAILS.filter((rail) => !rails || rails.includes(rail.name));
      while (!until()) {
        await new Promise((resolve) => setTimeout(resolve, everyMs * (0.5 + Math.random())));
        const rail = eligible[randomInt(eligible.length)]!;
        const call = rail.calls[randomInt(rail.calls.length)]!;
        const fault = SIMULATOR_FAULTS[randomInt(SIMULATOR_FAULTS.length)]!;
        served.faults.inject(call.match, fault);
        const what = `${call.name}:${fault}`;
        const counts = injected.get(rail.name)!;
        counts.set(what, (counts.get(what) ?? 0) + 1);
      }
    },
    close: () => served.close(),
  };
}
