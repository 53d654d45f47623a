import { eq } from "drizzle-orm";
import { decryptWithKey, getGatewayKey } from "../crypto/gateway-key";
import type { Db } from "../db/client";
import { services } from "../db/schema";
import { logger } from "../log";
import { webhookSigner } from "../notifications/sign-webhook";
import { DEMO_MERCHANT_NAME } from "./demo-merchant";

/** The sandbox demo merchant's webhook endpoint, served by the gateway itself. */
export const DEMO_WEBHOOK_PATH = "/demo/webhooks";
const KEPT = 20;

export interface ReceivedDemoWebhook {
  receivedAt: string;
  webhookId: string | null;
  signatureValid: boolean;
  body: unknown;
}

// What this process received, newest first: a demo, so memory is enough.
const received: ReceivedDemoWebhook[] = [];

/**
 * Receives a notification for the demo merchant as a merchant's server would: verifies its
 * Standard Webhooks signature with the demo service's secret, keeps it for GET, answers 204
 * (400 when the signature does not verify, so the gateway retries as for any bad answer).
 */
export async function receiveDemoWebhook(db: Db, request: Request): Promise<{ status: number }> {
  const body = await request.text();
  const headers = Object.fromEntries(request.headers);
  const [service] = await db
    .select({ secret: services.webhookSecretEncrypted })
    .from(services)
    .where(eq(services.name, DEMO_MERCHANT_NAME))
    .limit(1);
  let signatureValid = false;
  if (service) {
    try {
      webhookSigner(decryptWithKey(await getGatewayKey(db), service.secret)).verify(body, headers);
      signatureValid = true;
    } catch {
      signatureValid = false;
    }
  }
  let parsed: unknown = body;
  try {
    parsed = JSON.parse(body);
  } catch {
    // Kept as text.
  }
  received.unshift({ receivedAt: new Date().toISOString(), webhookId: headers["webhook-id"] ?? null, signatureValid, body: parsed });
  received.length = Math.min(received.length, KEPT);
  logger.info({ webhookId: headers["webhook-id"], signatureValid }, "demo merchant received a webhook");
  return { status: signatureValid ? 204 : 400 };
}

/** The last webhooks the demo endpoint received in this process, newest first. */
export function receivedDemoWebhooks(): readonly ReceivedDemoWebhook[] {
  return received;
}
