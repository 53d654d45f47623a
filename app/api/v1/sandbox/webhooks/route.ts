import * as op from "@/lib/api/operations/internals";
import { getConfig } from "@/lib/config";
import { ApiError } from "@/lib/errors/api-error";
import { endpoint } from "@/lib/http/endpoint";
import { requestIdFor } from "@/lib/http/request-id";
import { toErrorResponse } from "@/lib/http/respond";
import { listServiceNotifications } from "@/lib/notifications/list-service-notifications";
import { otherMethods } from "@/lib/http/method-not-allowed";

const listWebhooks = endpoint(op.listSandboxWebhooks, async ({ db, principal, query }) => {
  const items = await listServiceNotifications(db, { serviceId: principal.service.id, ...query });
  return { data: items, message: "Recent notifications and their delivery attempts." };
});

// GET /api/v1/sandbox/webhooks — a sandbox test helper; production answers like an unknown path.
export function GET(request: Request, context: { params: Promise<Record<string, string | string[]>> }) {
  if (!getConfig().isSandbox) {
    return Promise.resolve(toErrorResponse(new ApiError("not_found", "No such endpoint."), requestIdFor(request)));
  }
  return listWebhooks(request, context);
}

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET }, { sandboxOnly: true });
