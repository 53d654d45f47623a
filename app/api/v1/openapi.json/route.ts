import { servedOpenApiDocument } from "@/lib/api/openapi-document";
import { otherMethods } from "@/lib/http/method-not-allowed";
import { withRequestScope } from "@/lib/http/request-scope";

// GET /api/v1/openapi.json (no auth): the OpenAPI 3.1 description of this API; not the envelope.
export function GET(request: Request): Promise<Response> {
  return withRequestScope(request, async ({ requestId }) =>
    new Response(servedOpenApiDocument(), {
      headers: {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "public, max-age=300",
        "access-control-allow-origin": "*",
        "x-request-id": requestId,
      },
    }),
  );
}

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
