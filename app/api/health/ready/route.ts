import { checkReadiness } from "@/lib/health/check-readiness";
import { healthResponse } from "@/lib/health/health-response";

// GET /api/health/ready — 200 when the database answers and every migration is applied, else 503.
export async function GET(request: Request) {
  const { ready, checks } = await checkReadiness();
  return healthResponse(request, ready ? 200 : 503, { status: ready ? "ok" : "unavailable", checks });
}
