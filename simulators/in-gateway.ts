import type { BackgroundJob } from "../lib/background-job";
import { getConfig } from "../lib/config";
import { redeliverPendingEvents } from "./card/sandbox-event-delivery";
import { sandboxCardProvider } from "./card/sandbox-card-provider";

/*
 * The one place production code (lib/, app/, components/) may import a simulator from
 * (.dependency-cruiser.cjs "production-not-to-simulators"). A sandbox gateway with no
 * CARD_PROVIDER_API_URL or WALLET_PROVIDER_URL hosts both simulators in its own process, and
 * reaches them through the same adapters as over HTTP (the Stripe SDK's fetch, the wallet
 * protocol's transport); what it mounts is listed here and nothing else.
 */

// The card simulator: the Stripe SDK's in-process fetch, the browser side a real provider
// hosts itself (Stripe.js stand-in, confirm endpoint, 3DS challenge page).
export { inProcessStripeFetch } from "./card/in-process-stripe";
export { stripeJsStandInSource } from "./card/stripe-js-stand-in";
export { handleSandboxConfirm } from "./card/sandbox-browser-api";
export const sandboxCardBrowserConfirmation = sandboxCardProvider.browserConfirmation;
export const sandboxCardChallenge = {
  challengeOf: sandboxCardProvider.challengeOf,
  completeChallenge: sandboxCardProvider.completeChallenge,
};

/** The in-process card simulator's retry of events the gateway did not take; nothing outside the sandbox (no simulator tables there). */
export const sandboxCardEventsJob: BackgroundJob = {
  name: "card-provider.redeliver-events",
  intervalMs: 5_000,
  run: (db) => (getConfig().isSandbox ? redeliverPendingEvents(db) : Promise.resolve(0)),
};

// The wallet simulator: the wallet-service protocol served under /api/wallet-sandbox, and the
// in-process transport its callbacks come back by.
export { IN_GATEWAY_WALLET_PATH, inGatewayWallet, receiveWalletCallbacksInProcess, sandboxWalletSecret } from "./wallet/in-gateway-wallet";
