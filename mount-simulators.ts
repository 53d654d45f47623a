import { getDb } from "./lib/db/client";
import { handleQrCallback } from "./lib/payment-methods/registry/method-entry-points";
import { installSimulatorMount } from "./lib/providers/simulator-mount";
import { PAYMENT_METHODS } from "./lib/payment-methods/registry/payment-method-registry";
import { notifyRedirect } from "./lib/payments/hosted/redirect-payment";
import { REDIRECT_NOTIFICATIONS_PATH } from "./lib/urls/hosted-urls";
import { inGatewaySimulators, receiveChargilyWebhooksInProcess, receiveCmiCallbacksInProcess, receiveWalletCallbacksInProcess } from "./simulators/in-gateway";

/**
 * The composition root of a sandbox gateway's simulators: installs the card simulator and the
 * sandbox wallet this process hosts behind lib/providers/simulator-mount.ts, and hands the
 * wallet the gateway's QR callback receiver (the wallet posts its callbacks to it without a
 * socket). Called by every entry point that runs a sandbox gateway in its process:
 * instrumentation.ts (sandbox only), the test setup, scripts/worker.ts (sandbox only), the chaos
 * run and the benches. Never imported by lib/, app/ or components/ (.dependency-cruiser.cjs):
 * a production process never loads simulator code. Mounting again changes nothing.
 */
export function mountSimulators(): void {
  installSimulatorMount(inGatewaySimulators);
  receiveWalletCallbacksInProcess(async (request) => handleQrCallback(await getDb(), request));
  // CMI's callbacks reach the gateway's receiver (POST /api/redirect-callbacks/cmi) without a socket.
  receiveCmiCallbacksInProcess(async (request) => PAYMENT_METHODS.CMI.redirect!.receiveCallback!(await getDb(), request));
  // The Chargily simulator's signed webhooks reach the notification endpoint's domain call in this process.
  receiveChargilyWebhooksInProcess(async (request) => {
    const { pathname } = new URL(request.url);
    if (!pathname.startsWith(`${REDIRECT_NOTIFICATIONS_PATH}/`)) return new Response(null, { status: 404 });
    const paymentId = decodeURIComponent(pathname.slice(REDIRECT_NOTIFICATIONS_PATH.length + 1));
    const received = await notifyRedirect(await getDb(), { paymentId, body: await request.text(), headers: request.headers });
    return new Response(null, { status: received.kind === "accepted" ? 200 : received.kind === "rejected" ? 401 : 404 });
  });
}
