import { handleSandboxConfirm } from "@/simulators/in-gateway";

// POST /api/card-provider-sandbox/v1/payment_intents/:intentId/confirm (the sandbox card provider, not the gateway)
export async function POST(request: Request, context: { params: Promise<{ intentId: string }> }) {
  return handleSandboxConfirm(request, (await context.params).intentId);
}
