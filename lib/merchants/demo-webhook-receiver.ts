import { desc, eq, sql } from "drizzle-orm";
import { decryptWithKey, getGatewayKey } from "../crypto/gateway-key";
import type { Db } from "../db/client";
import { demoWebhookReceipts, services } from "../db/schema";
import { logger } from "../log";
import { webhookSigner } from "../notifications/sign-webhook";
import { demoMerchantServiceId } from "./demo-merchant";

/** The sandbox demo merchant's webhook endpoint, served by the gateway itself. */
// Under /api: a route handler, outside the hosted page tree (whose state changes are Server Actions).
export const DEMO_WEBHOOK_PATH = "/api/sandbox/demo-webhooks";
const KEPT = 20;

export interface ReceivedDemoWebhook {
  receivedAt: string;
  webhookId: string | null;
  signatureValid: boolean;
  body: unknown;
}

/**
 * Receives a notification for the demo merchant as a merchant's server would: verifies its
 * Standard Webhooks signature with the demo service's secret, keeps it for GET, answers 204
 * (400 when the signature does not verify, so the gateway retries as for any bad answer).
 */
export async function receiveDemoWebhook(db: Db, request: Request): Promise<{ status: number }> {
  const body = await request.text();
  const headers = Object.fromEntries(request.headers);
  const demoId = await demoMerchantServiceId(db);
  const [service] = demoId
    ? await db.select({ secret: services.webhookSecretEncrypted }).from(services).where(eq(services.id, demoId))
    : [];
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
  await db
    .insert(demoWebhookReceipts)
    .values({ webhookId: headers["webhook-id"] ?? null, signatureValid, body: parsed });
  await db.execute(
    sql`DELETE FROM ${demoWebhookReceipts}
        WHERE id <= (SELECT id FROM ${demoWebhookReceipts} ORDER BY id DESC OFFSET ${KEPT} LIMIT 1)`,
  );
  logger.info({ webhookId: headers["webhook-id"], signatureValid }, "demo merchant received a webhook");
  return { status: signatureValid ? 204 : 400 };
}

/** The last webhooks the demo endpoint received (any gateway process on this database), newest first. */
export async function receivedDemoWebhooks(db: Db): Promise<ReceivedDemoWebhook[]> {
  const rows = await db.select().from(demoWebhookReceipts).orderBy(desc(demoWebhookReceipts.id)).limit(KEPT);
  return rows.map((row) => ({
    receivedAt: row.receivedAt.toISOString(),
    webhookId: row.webhookId,
    signatureValid: row.signatureValid,
    body: row.body,
  }));
}
