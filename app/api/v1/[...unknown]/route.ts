import { ApiError } from "@/lib/errors/api-error";
import { withRequestScope } from "@/lib/http/request-scope";
import { toErrorResponse } from "@/lib/http/respond";

// Any unknown /api/v1 path: the contract's JSON 404 rather than an HTML page (and its log line).
function notFound(request: Request): Promise<Response> {
  return withRequestScope(
    request,
    async ({ requestId }) => toErrorResponse(new ApiError("not_found", "No such endpoint."), requestId),
    {
      route: "/api/v1/:unknown*",
    },
  );
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
// A preflight to no endpoint: the same 404 (no CORS headers, so a browser refuses it).
export const OPTIONS = notFound;
