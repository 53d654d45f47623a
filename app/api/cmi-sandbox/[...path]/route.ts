import { sandboxOnly } from "@/lib/http/sandbox-only";
import { simulatorMount } from "@/lib/providers/simulator-mount";

// POST /api/cmi-sandbox/fim/...: the CMI simulator (3D Pay Hosting gate, payment page, API), in the gateway's process. Sandbox only.
const serve = sandboxOnly(async (request: Request) => simulatorMount().cmi.handle(request));

export const GET = serve;
export const POST = serve;
