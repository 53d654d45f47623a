import { sandboxOnly } from "@/lib/http/sandbox-only";
import { simulatorMount } from "@/lib/providers/simulator-mount";

// GET|POST /api/chargily-sandbox/...: the Chargily Pay simulator (v2 API and hosted checkout), in the gateway's process. Sandbox only.
const serve = sandboxOnly(async (request: Request) => simulatorMount().chargily.handle(request));

export const GET = serve;
export const POST = serve;
