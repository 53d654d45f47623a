import type { Db } from "../db/client";
import type { CardProvider } from "./card/port";
import type { WalletTransport } from "./wallet/wallet-protocol";

/*
 * What a sandbox gateway needs from the simulators it hosts in its own process (the Stripe
 * simulator, the sandbox wallet), as a port: production code reads it here and never imports
 * a simulator (.dependency-cruiser.cjs "production-not-to-simulators"). A composition root
 * (instrumentation.ts in a sandbox, the test setup, the scripts that run a sandbox gateway:
 * mount-simulators.ts) installs it; a production process never does, so it never loads
 * simulator code.
 */

/** What the sandbox's 3DS page shows of one provider intent. */
export interface SandboxChallenge {
  intentId: string;
  status: string;
  amountMinor: number;
  currency: string;
  brand: string | null;
  last4: string | null;
  /** Where the buyer goes once answered (the card page's completion). */
  returnUrl: string | null;
  /** The gateway payment the intent was created for, to name the merchant. */
  paymentId: string | null;
}

/**
 * A redirect provider's simulator in this process: what its adapter and its sandbox route
 * (app/api/<name>-sandbox) read.
 */
export interface RedirectSimulatorMount {
  /**
   * The provider's API answered by its simulator in this process (the adapter's fetch when its URL variable
   * is unset, e.g. no SATIM_API_URL).
   */
  fetch: typeof fetch;
  /** Where the gateway serves it: /api/<name>-sandbox (SATIM's register.do at `${path}/payment/rest/register.do`). */
  path: string;
  /** The simulator's HTTP face (its API and its payment page), for the route. */
  handle(request: Request): Promise<Response>;
}

export interface SimulatorMount {
  card: {
    /** The Stripe SDK's fetch, answered by the card simulator in this process (no CARD_PROVIDER_API_URL). */
    stripeFetch: typeof fetch;
    /** What the card page's Stripe.js stand-in needs to confirm: the simulator's confirm endpoint and 3DS page. */
    browserConfirmation: CardProvider["browserConfirmation"];
    /** The stand-in for https://js.stripe.com/v3 (GET /api/card-provider-sandbox/js/v3). */
    stripeJsSource(): string;
    /**
     * The stand-in's confirmation (POST /api/card-provider-sandbox/v1/payment_intents/:id/confirm), in
     * Stripe's shapes.
     */
    handleConfirm(request: Request, intentId: string): Promise<Response>;
    /** The 3DS page's intent; null for an unknown intent or a wrong client secret. */
    challengeOf(db: Db, request: { intentId: string; clientSecret: string }): Promise<SandboxChallenge | null>;
    /**
     * The buyer's Complete or Fail on the 3DS page; answers where the buyer goes next, or null when the
     * simulator refuses it (unknown intent, wrong secret, not waiting).
     */
    completeChallenge(
      db: Db,
      request: { intentId: string; clientSecret: string; outcome: "complete" | "fail" },
    ): Promise<{ returnUrl: string } | null>;
    /** Sends again the events the gateway did not take (a background job); answers how many went. */
    redeliverEvents(db: Db): Promise<number>;
  };
  /**
   * Each redirect provider's simulator by its name (simulators/simulator-list.ts): "satim", "clictopay",
   * "cmi", "chargily".
   */
  redirect: Readonly<Record<string, RedirectSimulatorMount>>;
  wallet: {
    /** Where the gateway serves its wallet (GET|POST /api/wallet-sandbox/...): the protocol's paths hang under it. */
    path: string;
    /** The secret the gateway and its wallet sign both directions with. */
    secret(): Promise<string>;
    /**
     * The wallet on the gateway's database: its HTTP face (the route) and its in-process transport (the
     * gateway's wallet client).
     */
    server(): Promise<{ handle(request: Request): Promise<Response>; answer: WalletTransport }>;
  };
}

// On globalThis: the API lane's bundle (.lanes/) and Next.js's bundles each hold their own
// copy of this module in one process, and all of them must see the one mount.
const MOUNT = Symbol.for("gateway.simulatorMount");
const holder = globalThis as unknown as { [MOUNT]?: SimulatorMount };

/** Installs the simulators this process hosts; `null` removes them (tests). */
export function installSimulatorMount(mount: SimulatorMount | null): void {
  if (mount) holder[MOUNT] = mount;
  else delete holder[MOUNT];
}

export function hasSimulatorMount(): boolean {
  return holder[MOUNT] !== undefined;
}

/** The redirect provider simulator listed as `name` in this sandbox gateway; throws where none is. */
export function redirectSimulatorMount(name: string): RedirectSimulatorMount {
  const simulator = simulatorMount().redirect[name];
  if (!simulator) throw new Error(`no ${name} simulator is mounted in this process (simulators/simulator-list.ts)`);
  return simulator;
}

/**
 * The redirect provider simulator a request under /api/<name>-sandbox is for (the sandbox routes' one
 * handler); null where none is.
 */
export function redirectSimulatorServing(pathname: string): RedirectSimulatorMount | null {
  return (
    Object.values(simulatorMount().redirect).find(
      (simulator) => pathname === simulator.path || pathname.startsWith(`${simulator.path}/`),
    ) ?? null
  );
}

/**
 * The simulators of this sandbox gateway; throws where none were mounted (production, or a composition root
 * that forgot).
 */
export function simulatorMount(): SimulatorMount {
  const mount = holder[MOUNT];
  if (!mount)
    throw new Error("sandbox simulators are not mounted in this process (mount-simulators.ts: mountSimulators())");
  return mount;
}
