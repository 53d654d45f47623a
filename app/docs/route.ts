import { referencePageResponse } from "@/lib/api/docs-pages";

// GET /docs — the API reference, server-rendered from openapi.json (no script).
export function GET(request: Request): Response {
  return referencePageResponse(request);
}
