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
import type { ClientPrincipal, ServiceContext } from "./principal";
import { pathPaymentJoin, pathPaymentParameter, type WithPathPayment } from "./path-payment";
import type { PaymentRow } from "../db/payment-record";
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
    const client = limitedClientLookup(db);
    const lookup = db
      .with(client.limit)
      .select({ ...client.columns, ...(withPayment ? { payment: payments } : {}) })
      .from(client.limit)
      .leftJoin(apiCredentials, client.credentialJoin)
      .leftJoin(services, client.serviceJoin);
    return (withPayment ? lookup.leftJoin(payments, pathPaymentJoin()) : lookup).prepare(name);
  });
};

/**
 * The parts of every statement that looks a client id up with its limit charged: the
 * `client_limit` CTE, the columns a `ClientLookupRow` is read from, and the joins from
 * `client_limit` to api_credentials and services that they need.
 */
function limitedClientLookup(db: Db) {
  const [limit] = gcraCtes(
    db,
    [{ alias: "client_limit", policy: rateLimitPolicies.client, key: sql.placeholder("limitKey") }],
    sql.placeholder("nowMs"),
  );
  return {
    limit: limit!,
    columns: {
      credentialId: apiCredentials.id,
      secretHash: apiCredentials.clientSecretHash,
      service: serviceColumns,
      limitTat: limit!.tatMs,
      limitAllowed: limit!.allowed,
    },
    credentialJoin: eq(apiCredentials.clientId, sql.placeholder("clientId")),
    serviceJoin: eq(services.id, apiCredentials.serviceId),
  };
}

/** client_auth: the client id's limit is charged before the secret is judged, so failures count too. */
export async function resolveClient(
  db: Db,
  credential: ClientCredential,
  rateLimit: RequestRateLimit,
  readPaymentId?: string,
): Promise<WithPathPayment<ClientPrincipal>> {
  let pathPayment: PaymentRow | null | undefined;
  const limitKey = rateLimitKeys.client(credential.clientId);
  const row = await lookupWithLimits({
    db,
    rateLimit,
    checks: [{ policy: rateLimitPolicies.client, key: limitKey }],
    inOneStatement: async (nowMs) => {
      const [found] = await clientCredentialLimitedQuery(db, readPaymentId !== undefined).execute({
        clientId: credential.clientId,
        limitKey,
        nowMs,
        ...pathPaymentParameter(readPaymentId),
      });
      if (readPaymentId !== undefined) pathPayment = found?.payment ?? null;
      return splitClientLookup(found);
    },
    lookupOnly: async () => (await clientCredentialQuery(db).execute({ clientId: credential.clientId }))[0],
  });
  return { principal: clientPrincipalOf(credential, row), pathPayment };
}

export type ClientCredential = Extract<Credential, { mode: "client" }>;
type ClientRow = { credentialId: string; secretHash: string; service: ServiceContext };

/** What a statement that looks up a client id with its limit (PostgreSQL store) returns. */
export interface ClientLookupRow {
  credentialId: string | null;
  secretHash: string | null;
  service: ServiceContext | null;
  limitTat: number;
  limitAllowed: boolean;
}

function splitClientLookup(found: ClientLookupRow | undefined) {
  const { credentialId, secretHash, service } = found ?? {};
  return {
    row: credentialId && secretHash && service ? { credentialId, secretHash, service } : undefined,
    decisions: found ? [{ tatMs: found.limitTat, allowed: found.limitAllowed }] : [],
  };
}

function clientPrincipalOf(credential: ClientCredential, row: ClientRow | undefined): ClientPrincipal {
  if (!row || !constantTimeEqual(hashSecret(credential.clientSecret), row.secretHash)) throw invalidCredentials();
  return { mode: "client", service: row.service, credentialId: row.credentialId, clientId: credential.clientId };
}

/**
 * client_auth for an operation whose own statement looks up the credential and charges its
 * limit (create: auth and insert in one round trip). The statement takes these parameters and
 * writes only from `admitted_service` (`admittedClientCtes`, below); `principalFromClientLookup` then
 * decides exactly as resolveClient does on its own statement's row (429, then 401).
 */
export function clientLookupParameters(credential: ClientCredential, rateLimit: RequestRateLimit) {
  return {
    clientId: credential.clientId,
    limitKey: rateLimitKeys.client(credential.clientId),
    secretHash: hashSecret(credential.clientSecret),
    nowMs: rateLimit.nowMs(),
  };
}

export function principalFromClientLookup(
  credential: ClientCredential,
  rateLimit: RequestRateLimit,
  parameters: { limitKey: string; nowMs: number },
  found: ClientLookupRow | undefined,
): ClientPrincipal {
  const { row, decisions } = splitClientLookup(found);
  if (decisions.length === 1)
    rateLimit.record([{ policy: rateLimitPolicies.client, key: parameters.limitKey }], decisions, parameters.nowMs);
  return clientPrincipalOf(credential, row);
}

/**
 * The CTEs a statement needs to judge client_auth in itself (authenticate.ts `clientAuthInStatement`):
 * `client_limit`, the client id's limit charged as resolveClient charges it, and
 * `admitted_service`, the service's row only when that limit admits the request, the secret's
 * hash matches and x-service, if sent, names the service. The statement's writes select from
 * `admitted_service`, so a request `principalOf` refuses writes nothing; its outer select answers
 * `columns` from `client_limit` left-joined to api_credentials on `credentialJoin` and to services on `serviceJoin`.
 */
export function admittedClientCtes(db: Db) {
  const p = (name: keyof InStatementClientParameters) => sql.placeholder(name);
  const admitted = db
    .$with("admitted_service", {
      id: services.id,
      clockOffsetSeconds: services.clockOffsetSeconds,
      countries: services.countries,
    })
    .as(
      sql`select s.id, s.clock_offset_seconds, s.countries
        from api_credentials c
        join services s on s.id = c.service_id
        join client_limit on client_limit.allowed
        where c.client_id = ${p("clientId")}::text
          and c.client_secret_hash = ${p("secretHash")}::text
          and (${p("serviceHeader")}::text is null or s.code = ${p("serviceHeader")}::text)`,
    );
  return { ...limitedClientLookup(db), admitted };
}

type InStatementClientParameters = ReturnType<typeof clientLookupParameters> & { serviceHeader: string | null };
