import { endpoint } from "@/lib/http/endpoint";
import { advanceServiceClock } from "@/lib/sandbox/advance-service-clock";
import { advanceClockBody } from "@/lib/sandbox/advance-service-clock.schema";
import { sandboxOnly } from "@/lib/sandbox/sandbox-only";
import { otherMethods } from "@/lib/http/method-not-allowed";

// POST /api/v1/sandbox/clock
export const POST = sandboxOnly(
  endpoint({ auth: ["client"], body: advanceClockBody }, async ({ db, principal, body }) => ({
    data: await advanceServiceClock(db, { serviceId: principal.service.id, advanceSeconds: body.advanceSeconds }),
    message: "Service clock moved forward.",
  })),
);

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { GET, PUT, PATCH, DELETE } = otherMethods({ POST }, { sandboxOnly: true });
