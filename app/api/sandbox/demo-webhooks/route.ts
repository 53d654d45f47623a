import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { withApiHeaders } from "@/lib/http/api-headers";
import { receiveDemoWebhook, receivedDemoWebhooks } from "@/lib/merchants/demo-webhook-receiver";

const notFound = () => withApiHeaders(new Response("Not found", { status: 404 }));

// POST /api/sandbox/demo-webhooks — the sandbox demo merchant's webhook endpoint (signature verified).
export async function POST(request: Request) {
  if (!getConfig().isSandbox) return notFound();
  const { status } = await receiveDemoWebhook(await getDb(), request);
  return withApiHeaders(new Response(null, { status }));
}

// GET /api/sandbox/demo-webhooks — what the demo merchant received, newest first.
export async function GET() {
  if (!getConfig().isSandbox) return notFound();
  return withApiHeaders(
    Response.json(
      { received: await receivedDemoWebhooks(await getDb()) },
      { headers: { "cache-control": "no-store" } },
    ),
  );
}
