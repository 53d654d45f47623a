import type { Db } from "../../lib/db/client";
import { handleClictopayRequest } from "./clictopay-simulator";

/** Where a sandbox gateway serves its ClicToPay simulator: the REST calls under `${path}/payment/rest`, the payment page beside them. */
export const IN_GATEWAY_CLICTOPAY_PATH = "/api/clictopay-sandbox";

/** The simulator's HTTP face, for the route; the adapter's fetch answered in this process (the same requests and answers as over HTTP). */
export function inGatewayClictopay(db: () => Promise<Db>) {
  const handle = async (request: Request) => handleClictopayRequest(await db(), request, IN_GATEWAY_CLICTOPAY_PATH);
  const inProcessFetch: typeof fetch = async (input, init) => handle(new Request(input instanceof Request ? input : String(input), init));
  return { path: IN_GATEWAY_CLICTOPAY_PATH, handle, fetch: inProcessFetch };
}
