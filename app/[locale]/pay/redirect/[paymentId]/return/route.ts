import { getDb } from "@/lib/db/client";
import { orUnavailablePage } from "@/lib/hosted/hosted-form-route";
import { noStore } from "@/lib/http/security-headers";
import { isLocale } from "@/lib/i18n/locales";
import { returnFromRedirect } from "@/lib/payments/hosted/redirect-payment";
import { returnPagePath } from "@/lib/urls/hosted-urls";

/**
 * GET /{locale}/pay/redirect/{paymentId}/return?token=...: where the provider sends the buyer
 * back (SATIM's returnUrl and failUrl). Only the token is read: the outcome is asked of the
 * provider (returnFromRedirect), whatever else the address carries, so a reload, a replay or a
 * forged "success" changes nothing. Then the return page, which says how it stands.
 */
export async function GET(request: Request, context: { params: Promise<{ locale: string; paymentId: string }> }) {
  const { locale, paymentId } = await context.params;
  const token = new URL(request.url).searchParams.get("token") ?? "";
  if (!isLocale(locale) || !token)
    return new Response("Not found", { status: 404, headers: { "cache-control": noStore } });
  // The database away for a moment: the 503 page; the buyer's reload (or the reconciliation job) asks again.
  return orUnavailablePage(locale, async () => {
    const settled = await returnFromRedirect(await getDb(), { paymentId, token });
    if (settled.kind === "invalid_link")
      return new Response("Not found", { status: 404, headers: { "cache-control": noStore } });
    return new Response(null, {
      status: 303,
      headers: { location: returnPagePath({ locale, paymentId, token }), "cache-control": noStore },
    });
  });
}

/**
 * CMI posts the buyer back to okUrl / failUrl with its fields: read exactly as GET, the body ignored (the
 * outcome is CMI's status, never these fields).
 */
export const POST = GET;
