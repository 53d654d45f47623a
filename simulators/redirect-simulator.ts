import type { Db } from "../lib/db/client";

/**
 * How a simulator reaches the gateway (CMI's callback, Chargily's webhook): over HTTP as a process, without a
 * socket in a sandbox gateway.
 */
export type GatewaySender = (request: Request) => Promise<Response>;

/**
 * What a redirect provider's simulator folder declares (simulators/<provider>/<provider>-simulator-entry.ts),
 * listed once in simulators/simulator-list.ts: the sandbox gateway serves it under
 * /api/<name>-sandbox (simulators/in-gateway.ts), `npm run simulator -- <name>` as a process of its
 * own (scripts/simulator.ts), the chaos run beside the others (scripts/chaos/provider-faults.ts).
 */
export interface RedirectSimulator<Printed extends Record<string, string> = Record<string, string>> {
  /** As people name it: "ClicToPay". */
  title: string;
  /** Every request; `base` is where it is served ("" as a process, /api/<name>-sandbox in a gateway). */
  handle(db: Db, request: Request, context: { base: string; toGateway: GatewaySender }): Promise<Response>;
  /** What the provider answers when it fails itself (the process's 500, the chaos run's injected error). */
  failure: { contentType: string; body: string };
  /** The gateway's variables that point it at the simulator served at `url` (SATIM_API_URL=<url>/payment/rest). */
  gatewaySettings(url: string): Record<string, string>;
  /**
   * Its money calls, for the chaos run's faults (its rail): the method and the path under its base,
   * unanchored (/\/payment\/rest\/refund\.do/).
   */
  moneyCalls: { name: string; method: "GET" | "POST"; path: RegExp }[];
  process: {
    /**
     * Its variables' prefix: <PREFIX>_SIMULATOR_PORT, _HOST, _DATABASE_URL, _PGLITE_DIR
     * (simulatorProcessSettings in its declaration).
     */
    prefix: string;
    /** What it prints, for the usage: "the SATIM_API_URL and the merchant credentials it accepts". */
    prints: string;
    printed(origin: string): Printed;
    /** The lines printed without --json, after the first. */
    describe(printed: Printed): string[];
  };
}

/** A simulator's declaration, its printed credentials' type inferred. */
export const redirectSimulator = <Printed extends Record<string, string>>(
  simulator: RedirectSimulator<Printed>,
): RedirectSimulator<Printed> => simulator;

/** Where a sandbox gateway serves the simulator listed as `name` (app/api/<name>-sandbox/[...path]/route.ts). */
export const inGatewayPath = (name: string) => `/api/${name}-sandbox`;
