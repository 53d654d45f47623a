import { healthResponse } from "@/lib/health/health-response";

// GET /api/health — liveness: the process serves (contract 12), no auth, no database.
export function GET(request: Request) {
  return Promise.resolve(healthResponse(request, 200, { status: "ok" }));
}
