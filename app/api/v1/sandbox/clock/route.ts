import * as op from "@/lib/api/operations/internals";
import { endpoint } from "@/lib/http/endpoint";
import { advanceServiceClock } from "@/lib/sandbox/advance-service-clock";
import { sandboxOnly } from "@/lib/sandbox/sandbox-only";

// POST /api/v1/sandbox/clock
export const POST = sandboxOnly(
  endpoint(op.advanceSandboxClock, async ({ db, principal, body }) => ({
    data: await advanceServiceClock(db, { serviceId: principal.service.id, advanceSeconds: body.advanceSeconds }),
    message: "Service clock moved forward.",
  })),
);
