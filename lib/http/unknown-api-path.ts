import { ApiError } from "../errors/api-error";
import type { RouteModule } from "./api-router";
import { withRequestScope } from "./request-scope";
import { toErrorResponse } from "./respond";

/**
 * The API lane's answer to any path under /api/ that no route file serves, and to /api/v1 itself:
 * the contract's JSON 404 (and its log line), never an HTML page. Every method gets it, a
 * preflight (OPTIONS) too: no CORS headers, so a browser refuses it. The lane (api-lane.ts) answers
 * every /api/ path, so no route file of app/api stands for these (Next.js never sees one).
 */
function notFound(request: Request): Promise<Response> {
  return withRequestScope(
    request,
    async ({ requestId }) => toErrorResponse(new ApiError("not_found", "No such endpoint."), requestId),
    {
      route: "/api/v1/:unknown*",
    },
  );
}

/** As a route module: the handler for each method a route file may export. */
export const unknownApiPath: RouteModule = {
  GET: notFound,
  POST: notFound,
  PUT: notFound,
  PATCH: notFound,
  DELETE: notFound,
  OPTIONS: notFound,
};
