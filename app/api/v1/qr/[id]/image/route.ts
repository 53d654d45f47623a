import { getDb } from "@/lib/db/client";
import { noStore } from "@/lib/http/security-headers";
import { ApiError } from "@/lib/errors/api-error";
import { withRequestScope } from "@/lib/http/request-scope";
import { toErrorResponse } from "@/lib/http/respond";
import { renderQrImage } from "@/lib/payment-methods/registry/method-entry-points";
import { otherMethods } from "@/lib/http/method-not-allowed";

// GET /api/v1/qr/:id/image?token=... — the QR code as a PNG (metadata.qrImageUrl); not JSON, so not endpoint().
export function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return withRequestScope(request, async ({ requestId }) => {
    try {
      const { id } = await context.params;
      const token = new URL(request.url).searchParams.get("token") ?? "";
      const png = await renderQrImage(await getDb(), { paymentId: id, token });
      if (!png) return toErrorResponse(new ApiError("not_found", "No such QR code."), requestId);
      return new Response(new Uint8Array(png), {
        headers: {
          "content-type": "image/png",
          "content-length": String(png.length),
          // The URL carries the page token: no shared cache may keep it.
          "cache-control": noStore,
          "x-content-type-options": "nosniff",
          "x-request-id": requestId,
        },
      });
    } catch (error) {
      return toErrorResponse(error, requestId);
    }
  });
}

// Any other method: 405 method_not_allowed with an Allow header (contract 12).
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods({ GET });
