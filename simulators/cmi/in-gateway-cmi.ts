import type { Db } from "../../lib/db/client";
import { handleCmiRequest, sendOverHttp, type CmiCallbackSender } from "./cmi-simulator";

/** Where a sandbox gateway serves its CMI simulator: the gate at `${path}/fim/est3Dgate`, the API at `${path}/fim/api`. */
export const IN_GATEWAY_CMI_PATH = "/api/cmi-sandbox";

// The gateway's callback receiver in this process (mount-simulators.ts installs it): the callback reaches it without a socket.
let receiver: ((request: Request) => Promise<Response>) | null = null;

/** Hands the in-gateway CMI simulator the gateway's callback receiver (POST /api/redirect-callbacks/cmi). */
export function receiveCmiCallbacksInProcess(receive: (request: Request) => Promise<Response>): void {
  receiver = receive;
}

/** How the in-gateway simulator posts its callbacks: to the gateway in this process when it can, else over HTTP. */
export const inGatewayCmiCallbackSender: CmiCallbackSender = async (url, body) => {
  if (!receiver) return sendOverHttp(url, body);
  const response = await receiver(new Request(url, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body }));
  return { status: response.status, text: (await response.text()).trim() };
};

/** The simulator's HTTP face, for the route; the adapter's fetch answered in this process (the same requests and answers as over HTTP). */
export function inGatewayCmi(db: () => Promise<Db>) {
  const handle = async (request: Request) => handleCmiRequest(await db(), request, IN_GATEWAY_CMI_PATH, inGatewayCmiCallbackSender);
  const inProcessFetch: typeof fetch = async (input, init) => handle(new Request(input instanceof Request ? input : String(input), init));
  return { path: IN_GATEWAY_CMI_PATH, handle, fetch: inProcessFetch };
}
