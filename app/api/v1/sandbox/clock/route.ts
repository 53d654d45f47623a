import * as op from "@/lib/api/operations/internals";
import { endpoint } from "@/lib/http/endpoint";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { advanceServiceClock, resetServiceClock } from "@/lib/sandbox/advance-service-clock";
import { sandboxOnly } from "@/lib/http/sandbox-only";

// POST /api/v1/sandbox/clock  { "advanceSeconds": n } | { "reset": true }
export const POST = sandboxOnly(
  endpoint(op.advanceSandboxClock, async ({ db, principal, body }) =>
    body.reset
      ? {
          data: await resetServiceClock(db, { serviceId: principal.service.id }),
          message: "Service clock reset to real time.",
        }
      : {
          data: await advanceServiceClock(db, {
            serviceId: principal.service.id,
            advanceSeconds: body.advanceSeconds ?? 0,
          }),
          message: "Service clock moved forward.",
        },
  ),
);

// DELETE /api/v1/sandbox/clock — back to real time
export const DELETE = sandboxOnly(
  endpoint(op.resetSandboxClock, async ({ db, principal }) => ({
    data: await resetServiceClock(db, { serviceId: principal.service.id }),
    message: "Service clock reset to real time.",
  })),
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, OPTIONS } = otherMethods({ POST, DELETE }, { sandboxOnly: true });
