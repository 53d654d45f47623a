import type { Db } from "../../lib/db/client";
import { handleSatimRequest } from "./satim-simulator";

/** Where a sandbox gateway serves its SATIM simulator: the REST calls under `${path}/payment/rest`, the payment page beside them. */
export const IN_GATEWAY_SATIM_PATH = "/api/satim-sandbox";

/** The simulator's HTTP face, for the route (and `npm run satim-simulator`, which serves the same under its own origin). */
export function inGatewaySatim(db: () => Promise<Db>) {
  const handle = async (request: Request) => handleSatimRequest(await db(), request, IN_GATEWAY_SATIM_PATH);
  // The adapter's fetch answered in this process: the same requests and answers as over HTTP, without the socket.
  const inProcessFetch: typeof fetch = async (input, init) => handle(new Request(input instanceof Request ? input : String(input), init));
  return { path: IN_GATEWAY_SATIM_PATH, handle, fetch: inProcessFetch };
}
