import type { Db } from "../../lib/db/client";
import { handleStripeRequest } from "./stripe-simulator";

/**
 * A `fetch` for the Stripe SDK (`Stripe.createFetchHttpClient`) that answers from the sandbox's
 * Stripe simulator in this process instead of over the network: the sandbox gateway runs the
 * production adapter and the unmodified SDK, which still builds Stripe's form-encoded requests
 * and reads Stripe's JSON answers; only the socket is left out. `CARD_PROVIDER_API_URL` sends
 * the same requests over HTTP to a served simulator instead.
 */
export function inProcessStripeFetch(db: () => Promise<Db>): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers: Record<string, string> = {};
    new Headers(init?.headers).forEach((value, name) => {
      headers[name] = value;
    });
    const body = typeof init?.body === "string" ? init.body : init?.body ? await new Response(init.body).text() : "";
    const answer = await handleStripeRequest(await db(), {
      method: (init?.method ?? "GET").toUpperCase(),
      path: url.pathname,
      query: url.search.slice(1),
      body,
      headers,
    });
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { "content-type": "application/json", "request-id": `req_in_process_${Date.now().toString(36)}` },
    });
  };
}
