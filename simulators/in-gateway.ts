import { getDb } from "../lib/db/client";
import type { SimulatorMount } from "../lib/providers/simulator-mount";
import { inProcessStripeFetch } from "./card/in-process-stripe";
import { handleSandboxConfirm } from "./card/sandbox-browser-api";
import { CardProviderError } from "../lib/providers/card/card-provider-error";
import { sandboxCardProvider } from "./card/sandbox-card-provider";
import { redeliverPendingEvents } from "./card/sandbox-event-delivery";
import { stripeJsStandInSource } from "./card/stripe-js-stand-in";
import { IN_GATEWAY_WALLET_PATH, inGatewayWallet, sandboxWalletSecret } from "./wallet/in-gateway-wallet";
import { inGatewaySatim } from "./satim/in-gateway-satim";
import { inGatewayClictopay } from "./clictopay/in-gateway-clictopay";
import { inGatewayCmi } from "./cmi/in-gateway-cmi";
import { inGatewayChargily } from "./chargily/in-gateway-chargily";

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
  // The SATIM simulator: SATIM ePay's REST calls and payment page under /api/satim-sandbox.
  satim: inGatewaySatim(getDb),
  // The ClicToPay simulator: ClicToPay's REST calls and payment page under /api/clictopay-sandbox.
  clictopay: inGatewayClictopay(getDb),
  // The CMI simulator: CMI's 3D Pay Hosting gate, payment page and API under /api/cmi-sandbox.
  cmi: inGatewayCmi(getDb),
  // The Chargily Pay simulator: its v2 API, hosted checkout and signed webhooks under /api/chargily-sandbox.
  chargily: inGatewayChargily(getDb),
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
export { receiveCmiCallbacksInProcess } from "./cmi/in-gateway-cmi";
// Where the in-process Chargily simulator posts its signed webhooks: wired by mount-simulators.ts.
export { receiveChargilyWebhooksInProcess } from "./chargily/in-gateway-chargily";
