import { getConfig } from "@/lib/config";
import { simulatorMount } from "@/lib/providers/simulator-mount";

// GET /api/card-provider-sandbox/js/v3: the sandbox's stand-in for https://js.stripe.com/v3 (the sandbox card
// provider, not the gateway)
export function GET() {
  if (!getConfig().isSandbox) return new Response("Not found", { status: 404 });
  return new Response(simulatorMount().card.stripeJsSource(), {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=300" },
  });
}
