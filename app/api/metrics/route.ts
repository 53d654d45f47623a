import { serveMetrics } from "@/lib/http/metrics-route";
import { otherMethods } from "@/lib/http/method-not-allowed";

// GET /api/metrics: Prometheus' text, with METRICS_TOKEN (docs/operations.md, "Metrics").
export const GET = serveMetrics;

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
