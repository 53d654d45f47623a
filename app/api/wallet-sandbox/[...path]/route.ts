import { sandboxOnly } from "@/lib/http/sandbox-only";
import { simulatorMount } from "@/lib/providers/simulator-mount";

// GET|POST /api/wallet-sandbox/v1/...: the sandbox wallet behind the wallet-service protocol
// (docs/wallet-protocol.openapi.yaml), in the gateway's process. Sandbox only.
const serve = sandboxOnly(async (request: Request) => (await simulatorMount().wallet.server()).handle(request));

export const GET = serve;
export const POST = serve;
