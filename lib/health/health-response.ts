import { withApiHeaders } from "../http/api-headers";
import { requestIdFor } from "../http/request-id";

/** Probes read a plain `{ status }` (contract 12), with the request id every JSON answer carries. */
export function healthResponse(request: Request, status: number, body: Record<string, unknown>): Response {
  const response = new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      "x-request-id": requestIdFor(request),
      ...(status === 503 ? { "retry-after": "5" } : {}),
    },
  });
  return withApiHeaders(response);
}
