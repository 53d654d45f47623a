import { ApiError } from "../errors/api-error";
import { sandboxOnly } from "./sandbox-only";
import { requestIdFor } from "./request-id";
import { toErrorResponse } from "./respond";
import { redirectSimulatorServing } from "../providers/simulator-mount";

/**
 * GET|POST /api/<name>-sandbox/...: a redirect provider's simulator (its API and its payment
 * page) in the sandbox gateway's process, found by the path it is served under. Each
 * app/api/<name>-sandbox/[...path]/route.ts is one line re-exporting these. Sandbox only.
 */
const serve = sandboxOnly(async (request: Request) => {
  const simulator = redirectSimulatorServing(new URL(request.url).pathname);
  return simulator
    ? simulator.handle(request)
    : toErrorResponse(new ApiError("not_found", "No such endpoint."), requestIdFor(request));
});

export const GET = serve;
export const POST = serve;
