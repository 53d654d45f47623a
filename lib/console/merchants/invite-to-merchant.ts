import { eq } from "drizzle-orm";
import type { AuditActor } from "../../audit-log/record-audit-entry";
import type { Db } from "../../db/client";
import { apiCredentials, services } from "../../db/schema";
import { createInvitation } from "../access/invitations";
import type { ConsoleRole } from "../access/roles";

/** Invitations made on the gateway's host (`npm run merchant`) are recorded as this actor. */
export const CLI_ACTOR: AuditActor = { userId: null, email: "npm run merchant", ip: null };

/**
 * `npm run merchant -- invite` and `create --owner-email`: an invitation to the merchant that owns
 * the client id, with the merchant's name for its email (lib/console/access/invitation-mail.ts).
 */
export async function inviteToMerchant(
  db: Db,
  options: { clientId: string; email: string; role: ConsoleRole },
): Promise<{ inviteUrl: string; merchantName: string }> {
  const [credential] = await db
    .select({ serviceId: apiCredentials.serviceId, merchantName: services.name })
    .from(apiCredentials)
    .innerJoin(services, eq(services.id, apiCredentials.serviceId))
    .where(eq(apiCredentials.clientId, options.clientId));
  if (!credential) throw new Error(`No merchant with client id ${options.clientId} (see npm run merchant -- list).`);
  const { inviteUrl } = await createInvitation(db, {
    serviceId: credential.serviceId,
    email: options.email,
    role: options.role,
    actor: CLI_ACTOR,
  });
  return { inviteUrl, merchantName: credential.merchantName };
}
