import { getDb } from "../lib/db/client";
import type { RedirectSimulatorMount, SimulatorMount } from "../lib/providers/simulator-mount";
import { inProcessStripeFetch } from "./card/in-process-stripe";
import { handleSandboxConfirm } from "./card/sandbox-browser-api";
import { CardProviderError } from "../lib/providers/card/card-provider-error";
import { sandboxCardProvider } from "./card/sandbox-card-provider";
import { redeliverPendingEvents } from "./card/sandbox-event-delivery";
import { stripeJsStandInSource } from "./card/stripe-js-stand-in";
import { inGatewayPath, type GatewaySender, type RedirectSimulator } from "./redirect-simulator";
import { REDIRECT_SIMULATORS } from "./simulator-list";
import { IN_GATEWAY_WALLET_PATH, inGatewayWallet, sandboxWalletSecret } from "./wallet/in-gateway-wallet";

// How the redirect simulators reach the gateway (CMI's callbacks, Chargily's webhooks): over HTTP
// unless mount-simulators.ts hands them the gateway's receivers in this process (the same requests, without a socket).
let gatewayInProcess: GatewaySender | null = null;

export function receiveGatewayRequestsInProcess(receive: GatewaySender): void {
  gatewayInProcess = receive;
}

/** Where the in-gateway simulators post to the gateway (exported for the tests that send a callback again). */
export const toGateway: GatewaySender = (request) => (gatewayInProcess ? gatewayInProcess(request) : fetch(request));

/**
 * A redirect simulator on the gateway's database: its HTTP face for the route, and the adapter's fetch
 * answered in this process (the same requests and answers as over HTTP).
 */
function inGateway(path: string, simulator: RedirectSimulator): RedirectSimulatorMount {
  const handle = async (request: Request) => simulator.handle(await getDb(), request, { base: path, toGateway });
  const inProcessFetch: typeof fetch = async (input, init) =>
    handle(new Request(input instanceof Request ? input : String(input), init));
  return { path, handle, fetch: inProcessFetch };
}

/*
 * What a sandbox gateway hosts in its own process, as the port production code reads
 * (lib/providers/simulator-mount.ts): mount-simulators.ts installs it. A sandbox gateway with no
 * CARD_PROVIDER_API_URL or WALLET_PROVIDER_URL reaches both simulators through the same
 * adapters as over HTTP (the Stripe SDK's fetch, the wallet protocol's transport).
 */
export const inGatewaySimulators: SimulatorMount = {
  // The card simulator: the Stripe SDK's in-process fetch, and the browser side a real provider
  // hosts itself (Stripe.js stand-in, confirm endpoint, 3DS challenge page, event retries).
  card: {
    stripeFetch: inProcessStripeFetch(getDb),
    browserConfirmation: sandboxCardProvider.browserConfirmation,
    stripeJsSource: stripeJsStandInSource,
    handleConfirm: handleSandboxConfirm,
    challengeOf: sandboxCardProvider.challengeOf,
    // A refusal crosses the port as null, not as an error: instrumentation's copy of
    // CardProviderError need not be the route bundle's, so `instanceof` there could miss it.
    completeChallenge: async (db, request) => {
      try {
        return await sandboxCardProvider.completeChallenge(db, request);
      } catch (error) {
        if (error instanceof CardProviderError) return null;
        throw error;
      }
    },
    redeliverEvents: (db) => redeliverPendingEvents(db),
  },
  // Every redirect provider's simulator (simulators/simulator-list.ts) under /api/<name>-sandbox.
  redirect: Object.fromEntries(
    Object.entries(REDIRECT_SIMULATORS).map(([name, simulator]) => [name, inGateway(inGatewayPath(name), simulator)]),
  ),
  // The wallet simulator: the wallet-service protocol served under /api/wallet-sandbox, and the
  // same answers to the gateway's wallet client in this process.
  wallet: {
    path: IN_GATEWAY_WALLET_PATH,
    secret: sandboxWalletSecret,
    server: inGatewayWallet,
  },
};

// Where the in-process wallet's callbacks reach the gateway: wired by mount-simulators.ts.
export { receiveWalletCallbacksInProcess } from "./wallet/in-gateway-wallet";
