import { getDb } from "./lib/db/client";
import { isPaymentMethodCode } from "./lib/payment-methods/codes/payment-method-codes";
import { handleQrCallback } from "./lib/payment-methods/registry/method-entry-points";
import { installSimulatorMount } from "./lib/providers/simulator-mount";
import { PAYMENT_METHODS } from "./lib/payment-methods/registry/payment-method-registry";
import { notifyRedirect } from "./lib/payments/hosted/redirect-payment";
import { REDIRECT_NOTIFICATIONS_PATH } from "./lib/urls/hosted-urls";
import {
  inGatewaySimulators,
  receiveGatewayRequestsInProcess,
  receiveWalletCallbacksInProcess,
} from "./simulators/in-gateway";

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
  receiveGatewayRequestsInProcess(receiveInProcess);
}

const REDIRECT_CALLBACKS_PATH = "/api/redirect-callbacks";
const notFound = () => new Response(null, { status: 404 });

/**
 * What the redirect simulators post to the gateway, answered in this process as its routes
 * would: a provider's callback (POST /api/redirect-callbacks/{method}, CMI's) and a signed
 * notification (POST /api/v1/redirect-notifications/{paymentId}, Chargily's webhooks).
 */
async function receiveInProcess(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  if (pathname.startsWith(`${REDIRECT_CALLBACKS_PATH}/`)) {
    const code = pathname.slice(REDIRECT_CALLBACKS_PATH.length + 1).toUpperCase();
    const receive = isPaymentMethodCode(code) ? PAYMENT_METHODS[code].redirect?.receiveCallback : undefined;
    return receive ? receive(await getDb(), request) : notFound();
  }
  if (!pathname.startsWith(`${REDIRECT_NOTIFICATIONS_PATH}/`)) return notFound();
  const paymentId = decodeURIComponent(pathname.slice(REDIRECT_NOTIFICATIONS_PATH.length + 1));
  const received = await notifyRedirect(await getDb(), {
    paymentId,
    body: await request.text(),
    headers: request.headers,
  });
  return new Response(null, { status: received.kind === "accepted" ? 200 : received.kind === "rejected" ? 401 : 404 });
}
