import { getConfig } from "../config";
import { constantTimeEqual } from "../crypto/secrets";
import { getDb } from "../db/client";
import { ApiError } from "../errors/api-error";
import { clusterMetricsText } from "../metrics/cluster-view";
import { withRequestScope } from "./request-scope";
import { toErrorResponse } from "./respond";

const ROUTE = "/api/metrics";

/**
 * GET /api/metrics: the Prometheus text of every gateway process (lib/metrics/cluster-view.ts),
 * only to `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time), so it may face the
 * internet; without METRICS_TOKEN the path does not exist (404).
 */
export function serveMetrics(request: Request): Promise<Response> {
  return withRequestScope(
    request,
    async ({ requestId }) => {
      const token = getConfig().METRICS_TOKEN;
      if (!token) return toErrorResponse(new ApiError("not_found", "No such endpoint."), requestId);
      const given = /^Bearer (\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1] ?? "";
      if (!constantTimeEqual(given, token)) {
        return toErrorResponse(
          new ApiError("invalid_credentials", "GET /api/metrics takes Authorization: Bearer <METRICS_TOKEN>."),
          requestId,
          {
            "www-authenticate": 'Bearer realm="metrics"',
          },
        );
      }
      const { text, contentType } = await clusterMetricsText(getDb);
      return new Response(text, {
        headers: { "content-type": contentType, "cache-control": "no-store", "x-request-id": requestId },
      });
    },
    { route: ROUTE },
  );
}
