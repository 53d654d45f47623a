import { getDb } from "@/lib/db/client";
import { orUnavailablePage } from "@/lib/hosted/hosted-form-route";
import { returnPagePath, cardPagePath } from "@/lib/urls/hosted-urls";
import { noStore } from "@/lib/http/security-headers";
import { isLocale } from "@/lib/i18n/locales";
import { completeCardPayment } from "@/lib/payment-methods/registry/method-entry-points";

/**
 * GET /{locale}/pay/card/{paymentId}/complete?token=...&payment_intent=...: where the buyer
 * lands after the provider (Stripe-style return_url). Settling is idempotent and only ever
 * applies what the provider itself reports, so a GET that a link or a reload repeats is safe.
 */
export async function GET(request: Request, context: { params: Promise<{ locale: string; paymentId: string }> }) {
  const { locale, paymentId } = await context.params;
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  const paymentIntentId = url.searchParams.get("payment_intent") ?? "";
  if (!isLocale(locale) || !token)
    return new Response("Not found", { status: 404, headers: { "cache-control": noStore } });
  const link = { locale, paymentId, token };
  // The database away for a moment: the 503 page; the buyer's reload (or the card reconciliation) asks again.
  return orUnavailablePage(locale, async () => {
    const completion = await completeCardPayment(await getDb(), { paymentId, token, paymentIntentId });
    // A wrong token, or a provider that could not be read: the card page decides what the buyer sees.
    const target = completion.kind === "finished" ? returnPagePath(link) : cardPagePath(link);
    return new Response(null, { status: 303, headers: { location: target, "cache-control": noStore } });
  });
}
