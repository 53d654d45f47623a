import type { Db } from "../../lib/db/client";
import { handleChargilyRequest, type WebhookSender } from "./chargily-simulator";

/** Where a sandbox gateway serves its Chargily simulator: the v2 API under `${path}/api/v2`, the hosted checkout beside it. */
export const IN_GATEWAY_CHARGILY_PATH = "/api/chargily-sandbox";

/**
 * How the in-gateway simulator posts its webhooks: over HTTP unless mount-simulators.ts hands it
 * the gateway's receiver (then the same signed request, answered in this process).
 */
let sendWebhook: WebhookSender = (request) => fetch(request);

export function receiveChargilyWebhooksInProcess(receiver: WebhookSender): void {
  sendWebhook = receiver;
}

/** The simulator's HTTP face, for the route; the adapter's fetch answered in this process (the same requests and answers as over HTTP). */
export function inGatewayChargily(db: () => Promise<Db>) {
  const handle = async (request: Request) => handleChargilyRequest(await db(), request, { base: IN_GATEWAY_CHARGILY_PATH, sendWebhook: (webhook) => sendWebhook(webhook) });
  const inProcessFetch: typeof fetch = async (input, init) => handle(new Request(input instanceof Request ? input : String(input), init));
  return { path: IN_GATEWAY_CHARGILY_PATH, handle, fetch: inProcessFetch };
}
