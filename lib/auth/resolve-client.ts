import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { prepared } from "../db/prepared";
import { apiCredentials, payments, services } from "../db/schema";
import { constantTimeEqual, hashSecret } from "../crypto/secrets";
import { invalidCredentials } from "../errors/api-error";
import { gcraCtes } from "../rate-limit/gcra-sql";
import { lookupWithLimits } from "../rate-limit/lookup-with-limits";
import { rateLimitKeys, rateLimitPolicies } from "../rate-limit/policies";
import type { RequestRateLimit } from "../rate-limit/request-rate-limit";
import type { Credential } from "./detect-credential";
import type { ClientPrincipal } from "./principal";
import { paymentAlongsideCondition, paymentAlongsideParameter, type PaymentAlongside } from "./payment-alongside";
import { serviceColumns } from "./service-columns";

const clientCredentialQuery = (db: Db) =>
  prepared(db, "auth_client", (db) =>
    db
      .select({ credentialId: apiCredentials.id, secretHash: apiCredentials.clientSecretHash, service: serviceColumns })
      .from(apiCredentials)
      .innerJoin(services, eq(services.id, apiCredentials.serviceId))
      .where(eq(apiCredentials.clientId, sql.placeholder("clientId")))
      .prepare("auth_client"),
  );

// The same lookup with the client id's limit charged in the same statement (PostgreSQL
// store): the limit row always comes back, so an unknown client id still counts. The
// `_with_payment` variant also reads the payment the request names (check: one round trip).
const clientCredentialLimitedQuery = (db: Db, withPayment: boolean) => {
  const name = withPayment ? "auth_client_limited_with_payment" : "auth_client_limited";
  return prepared(db, name, (db) => {
    const [limit] = gcraCtes(
      db,
      [{ alias: "client_limit", policy: rateLimitPolicies.client, key: sql.placeholder("limitKey") }],
      sql.placeholder("nowMs"),
    );
    const lookup = db
      .with(limit!)
      .select({
        credentialId: apiCredentials.id,
        secretHash: apiCredentials.clientSecretHash,
        service: serviceColumns,
        limitTat: limit!.tatMs,
        limitAllowed: limit!.allowed,
        ...(withPayment ? { payment: payments } : {}),
      })
      .from(limit!)
      .leftJoin(apiCredentials, eq(apiCredentials.clientId, sql.placeholder("clientId")))
      .leftJoin(services, eq(services.id, apiCredentials.serviceId));
    return (withPayment ? lookup.leftJoin(payments, paymentAlongsideCondition()) : lookup).prepare(name);
  });
};

/** client_auth: the client id's limit is charged before the secret is judged, so failures count too. */
export async function resolveClient(
  db: Db,
  credential: Extract<Credential, { mode: "client" }>,
  rateLimit: RequestRateLimit,
  alongside?: PaymentAlongside,
): Promise<ClientPrincipal> {
  const limitKey = rateLimitKeys.client(credential.clientId);
  const row = await lookupWithLimits({
    db,
    rateLimit,
    checks: [{ policy: rateLimitPolicies.client, key: limitKey }],
    folded: async (nowMs) => {
      const [found] = await clientCredentialLimitedQuery(db, alongside !== undefined).execute({
        clientId: credential.clientId,
        limitKey,
        nowMs,
        ...paymentAlongsideParameter(alongside),
      });
      const { credentialId, secretHash, service } = found ?? {};
      if (alongside) alongside.found = found?.payment ?? null;
      return {
        row: credentialId && secretHash && service ? { credentialId, secretHash, service } : undefined,
        decisions: found ? [{ tatMs: found.limitTat, allowed: found.limitAllowed }] : [],
      };
    },
    plain: async () => (await clientCredentialQuery(db).execute({ clientId: credential.clientId }))[0],
  });
  if (!row || !constantTimeEqual(hashSecret(credential.clientSecret), row.secretHash)) throw invalidCredentials();
  return { mode: "client", service: row.service, credentialId: row.credentialId, clientId: credential.clientId };
}
