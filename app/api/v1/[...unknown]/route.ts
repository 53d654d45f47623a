import { ApiError } from "@/lib/http/api-error";
import { requestIdFor } from "@/lib/http/request-id";
import { toErrorResponse } from "@/lib/http/respond";

// Any unknown /api/v1 path: the contract's JSON 404 rather than an HTML page.
function notFound(request: Request): Promise<Response> {
  return Promise.resolve(toErrorResponse(new ApiError("not_found", "No such endpoint."), requestIdFor(request)));
}

export const GET = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
