import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { receiveDemoWebhook, receivedDemoWebhooks } from "@/lib/merchants/demo-webhook-receiver";

const notFound = () => new Response("Not found", { status: 404 });

// POST /api/sandbox/demo-webhooks — the sandbox demo merchant's webhook endpoint (signature verified).
export async function POST(request: Request) {
  if (!getConfig().isSandbox) return notFound();
  const { status } = await receiveDemoWebhook(await getDb(), request);
  return new Response(null, { status });
}

// GET /api/sandbox/demo-webhooks — what the demo merchant received, newest first.
export async function GET() {
  if (!getConfig().isSandbox) return notFound();
  return Response.json({ received: await receivedDemoWebhooks(await getDb()) }, { headers: { "cache-control": "no-store" } });
}
