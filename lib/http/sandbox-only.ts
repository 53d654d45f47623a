import { getConfig } from "../config";
import { ApiError } from "../errors/api-error";
import { withApiHeaders } from "./api-headers";
import { requestIdFor } from "./request-id";
import { toErrorResponse } from "./respond";

type RouteHandler<C> = (request: Request, context: C) => Promise<Response>;

/**
 * Contract section 9: test helpers exist only in the sandbox. In production the path answers
 * the same 404 as an unknown one, before any credential is looked at.
 */
export function sandboxOnly<C>(handler: RouteHandler<C>): RouteHandler<C> {
  return async (request, context) => {
    if (getConfig().isSandbox) return withApiHeaders(await handler(request, context));
    return withApiHeaders(toErrorResponse(new ApiError("not_found", "No such endpoint."), requestIdFor(request)));
  };
}
