import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { apiCredentials } from "../db/schema";
import { hashSecret } from "../crypto/secrets";
import { newClientSecret } from "./codes";

/** The old secret stops working at once; the new one is returned a single time. */
export async function rotateClientSecret(
  db: Db,
  clientId: string,
): Promise<{ clientId: string; clientSecret: string }> {
  const clientSecret = newClientSecret();
  const updated = await db
    .update(apiCredentials)
    .set({ clientSecretHash: hashSecret(clientSecret), secretRotatedAt: sql`now()` })
    .where(eq(apiCredentials.clientId, clientId))
    .returning({ id: apiCredentials.id });
  if (updated.length === 0) throw new Error(`No credential with client id ${clientId}`);
  return { clientId, clientSecret };
}
