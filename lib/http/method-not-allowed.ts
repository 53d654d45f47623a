import { getConfig } from "../config";
import { ApiError } from "../errors/api-error";
import { optionsResponse, SERVES_BROWSERS } from "./cors";
import { withRequestScope } from "./request-scope";
import { toErrorResponse } from "./respond";

/** The methods a route file can export that Next.js does not implement by itself. */
const ROUTE_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type RouteMethod = (typeof ROUTE_METHODS)[number];
type Handler = (request: Request) => Promise<Response>;

/**
 * Marks a handler that is no endpoint of the API (a refusal of its method, or OPTIONS), so route
 * discovery can tell it from a real one.
 */
export const NOT_SERVED = Symbol.for("gateway.methodNotAllowed");

/**
 * Handlers for the methods a route does not serve (contract 12): 405 `method_not_allowed`
 * in the error envelope with an `Allow` header, instead of Next.js's bare empty 405; and
 * OPTIONS, whose `Allow` names the same methods (Next.js's own would list the refusing handlers
 * too) and which answers a browser's CORS preflight on a route that takes merchant_auth (lib/http/cors.ts).
 * `export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET, POST });` — destructuring a
 * method the route does serve is a type error.
 */
export function otherMethods<S extends Partial<Record<RouteMethod, unknown>>>(
  served: S,
  options: { sandboxOnly?: boolean } = {},
): { [K in Exclude<RouteMethod, keyof S>]: Handler } & { OPTIONS: Handler } {
  const allowed = allowHeader(Object.keys(served) as RouteMethod[]);
  // A route answers browsers when one of its endpoints takes merchant_auth (cors.ts).
  const browsers = Object.values(served).some(
    (handler) => (handler as { [SERVES_BROWSERS]?: boolean } | undefined)?.[SERVES_BROWSERS] === true,
  );
  const refuse: Handler = (request) =>
    withRequestScope(
      request,
      async ({ requestId }) => {
        // A sandbox helper's path does not exist in production, whatever the method (contract 9).
        if (options.sandboxOnly && !getConfig().isSandbox) {
          return toErrorResponse(new ApiError("not_found", "No such endpoint."), requestId);
        }
        return toErrorResponse(
          new ApiError("method_not_allowed", `${request.method} is not allowed here; this path serves ${allowed}.`),
          requestId,
          { allow: allowed },
        );
      },
      { browsers },
    );
  Object.defineProperty(refuse, NOT_SERVED, { value: true });
  const answerOptions: Handler = async (request) => optionsResponse(request, allowed, browsers);
  Object.defineProperty(answerOptions, NOT_SERVED, { value: true });
  const handlers: Record<string, Handler> = { OPTIONS: answerOptions };
  for (const method of ROUTE_METHODS) if (!(method in served)) handlers[method] = refuse;
  return handlers as { [K in Exclude<RouteMethod, keyof S>]: Handler } & { OPTIONS: Handler };
}

/** Next.js answers HEAD for a GET route by itself; OPTIONS is answered above. */
function allowHeader(served: RouteMethod[]): string {
  const methods: string[] = [...served];
  if (served.includes("GET")) methods.push("HEAD");
  methods.push("OPTIONS");
  return methods.join(", ");
}
