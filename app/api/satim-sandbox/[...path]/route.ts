import { sandboxOnly } from "@/lib/http/sandbox-only";
import { simulatorMount } from "@/lib/providers/simulator-mount";

// GET|POST /api/satim-sandbox/payment/...: the SATIM ePay simulator (REST calls and payment page), in the gateway's process. Sandbox only.
const serve = sandboxOnly(async (request: Request) => simulatorMount().satim.handle(request));

export const GET = serve;
export const POST = serve;
