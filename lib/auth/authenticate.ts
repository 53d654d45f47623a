import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { prepared } from "../db/prepared";
import { apiCredentials, customers, customerTokens, services } from "../db/schema";
import { getGatewayKey } from "../crypto/gateway-key";
import { constantTimeEqual, hashSecret } from "../crypto/secrets";
import { ApiError, invalidCredentials } from "../http/api-error";
import { noteRequestPrincipal } from "../log";
import { gcraCtes } from "../rate-limit/gcra-sql";
import { lookupWithLimits } from "../rate-limit/lookup-with-limits";
import { rateLimitKeys, rateLimitPolicies } from "../rate-limit/policies";
import { RequestRateLimit } from "../rate-limit/request-rate-limit";
import { isOriginAllowed } from "../merchants/allowed-origins";
import { paymentIdFromClientSecret } from "./client-secret";
import {
  malformedCredentialMessage,
  MERCHANT_PAIR_INCOMPLETE,
  rejectedCredentialMessage,
  wrongModeMessage,
} from "./credential-hints";
import { detectCredential, type Credential } from "./detect-credential";
import type { AuthMode, Principal, PrincipalOf, ServiceContext } from "./principal";

export const serviceColumns = {
  id: services.id,
  code: services.code,
  name: services.name,
  tenantId: services.tenantId,
  countries: services.countries,
  allowedOrigins: services.allowedOrigins,
  redirectUrl: services.redirectUrl,
  webhookUrl: services.webhookUrl,
  clockOffsetSeconds: services.clockOffsetSeconds,
  cardProviderPublishableKey: services.cardProviderPublishableKey,
};

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
// store): the limit row always comes back, so an unknown client id still counts.
const clientCredentialLimitedQuery = (db: Db) =>
  prepared(db, "auth_client_limited", (db) => {
    const [limit] = gcraCtes(
      db,
      [{ alias: "client_limit", policy: rateLimitPolicies.client, key: sql.placeholder("limitKey") }],
      sql.placeholder("nowMs"),
    );
    return db
      .with(limit!)
      .select({
        credentialId: apiCredentials.id,
        secretHash: apiCredentials.clientSecretHash,
        service: serviceColumns,
        limitTat: limit!.tatMs,
        limitAllowed: limit!.allowed,
      })
      .from(limit!)
      .leftJoin(apiCredentials, eq(apiCredentials.clientId, sql.placeholder("clientId")))
      .leftJoin(services, eq(services.id, apiCredentials.serviceId))
      .prepare("auth_client_limited");
  });

const publishableKeyQuery = (db: Db) =>
  prepared(db, "auth_publishable_key", (db) =>
    db
      .select({ service: serviceColumns })
      .from(apiCredentials)
      .innerJoin(services, eq(services.id, apiCredentials.serviceId))
      .where(eq(apiCredentials.publishableKey, sql.placeholder("publishableKey")))
      .prepare("auth_publishable_key"),
  );

// merchant_auth with a genuine client secret: the secret's limit, then the publishable
// key's, charged in the lookup's statement (PostgreSQL store).
const publishableKeyLimitedQuery = (db: Db) =>
  prepared(db, "auth_publishable_key_limited", (db) => {
    const [secretLimit, keyLimit] = gcraCtes(
      db,
      [
        { alias: "secret_limit", policy: rateLimitPolicies.clientSecret, key: sql.placeholder("secretLimitKey") },
        { alias: "key_limit", policy: rateLimitPolicies.publishableKey, key: sql.placeholder("keyLimitKey") },
      ],
      sql.placeholder("nowMs"),
    );
    return db
      .with(secretLimit!, keyLimit!)
      .select({
        service: serviceColumns,
        secretTat: secretLimit!.tatMs,
        secretAllowed: secretLimit!.allowed,
        keyTat: keyLimit!.tatMs,
        keyAllowed: keyLimit!.allowed,
      })
      .from(secretLimit!)
      .innerJoin(keyLimit!, sql`true`)
      .leftJoin(apiCredentials, eq(apiCredentials.publishableKey, sql.placeholder("publishableKey")))
      .leftJoin(services, eq(services.id, apiCredentials.serviceId))
      .prepare("auth_publishable_key_limited");
  });

// Token expiry reads the service's sandbox clock, like every other time rule.
const liveAccessToken = () =>
  and(
    eq(customerTokens.accessTokenHash, sql.placeholder("hash")),
    isNull(customerTokens.revokedAt),
    isNull(customerTokens.rotatedAt),
    gt(customerTokens.accessExpiresAt, sql`now() + make_interval(secs => ${services.clockOffsetSeconds})`),
    eq(customers.isActive, true),
  );

const accessTokenQuery = (db: Db) =>
  prepared(db, "auth_access_token", (db) =>
    db
      .select({ tokenId: customerTokens.id, customerId: customerTokens.customerId, service: serviceColumns })
      .from(customerTokens)
      .innerJoin(customers, eq(customers.id, customerTokens.customerId))
      .innerJoin(services, eq(services.id, customerTokens.serviceId))
      .where(liveAccessToken())
      .prepare("auth_access_token"),
  );

// The same lookup charging the customer's limit in its statement (PostgreSQL store). Only a
// live token names a customer to charge: a revoked one must not let its old holder drain
// the customer's quota.
const accessTokenLimitedQuery = (db: Db) =>
  prepared(db, "auth_access_token_limited", (db) => {
    const token = db.$with("token").as(
      db
        .select({ tokenId: customerTokens.id, customerId: customerTokens.customerId, serviceId: customerTokens.serviceId })
        .from(customerTokens)
        .innerJoin(customers, eq(customers.id, customerTokens.customerId))
        .innerJoin(services, eq(services.id, customerTokens.serviceId))
        .where(liveAccessToken()),
    );
    const [limit] = gcraCtes(
      db,
      [
        {
          alias: "customer_limit",
          policy: rateLimitPolicies.customer,
          key: sql`${rateLimitKeys.customer("")}::text || ${token.customerId}::text`,
          from: sql`from ${token}`,
        },
      ],
      sql.placeholder("nowMs"),
    );
    return db
      .with(token, limit!)
      .select({
        tokenId: token.tokenId,
        customerId: token.customerId,
        service: serviceColumns,
        limitTat: limit!.tatMs,
        limitAllowed: limit!.allowed,
      })
      .from(token)
      .innerJoin(services, eq(services.id, token.serviceId))
      .innerJoin(limit!, sql`true`)
      .prepare("auth_access_token_limited");
  });

export interface AuthenticateOptions<M extends AuthMode> {
  modes: readonly M[];
  /** The `:id` of the path, which a client secret must name. */
  paymentId?: string;
  /** Interface: x-service is required for client_auth and user_auth on some endpoints. */
  requireServiceHeader?: boolean;
  /** Receives the request's rate limit outcome for its headers; the limits apply without it too. */
  rateLimit?: RequestRateLimit;
}

/**
 * Resolves the request's credential into a principal of one of the accepted modes. A 401
 * says how a credential must be sent when the request's shape is wrong (scheme, encoding,
 * mode); a well-formed credential that is refused always gets the same message, so a caller
 * never learns whether it exists (credential-hints.ts).
 */
export async function authenticate<M extends AuthMode>(
  db: Db,
  request: Request,
  options: AuthenticateOptions<M>,
): Promise<PrincipalOf<M>> {
  const credential = detectCredential(request.headers);
  if (!credential) throw invalidCredentials(malformedCredentialMessage(request.headers, options.modes));
  if (!(options.modes as readonly AuthMode[]).includes(credential.mode)) {
    throw invalidCredentials(wrongModeMessage(credential, options.modes));
  }
  if (credential.mode === "merchant" && !credential.clientSecret) throw invalidCredentials(MERCHANT_PAIR_INCOMPLETE);
  let principal: Principal;
  try {
    principal = await resolveCredential(db, credential, options.paymentId, options.rateLimit ?? new RequestRateLimit());
    if (principal.mode === "client" || principal.mode === "user") {
      checkServiceHeader(request.headers, principal.service, options.requireServiceHeader ?? false);
    }
  } catch (error) {
    if (error instanceof ApiError && error.errorName === "invalid_credentials") {
      throw invalidCredentials(rejectedCredentialMessage(request.headers));
    }
    throw error;
  }
  noteRequestPrincipal(principal);
  if (principal.mode === "merchant") checkOrigin(request.headers, principal.service);
  return principal as PrincipalOf<M>;
}

/**
 * Each credential is charged against the limit of what it names (contract section 6)
 * before it is judged, so failed attempts count too; see lookupWithLimits.
 */
async function resolveCredential(
  db: Db,
  credential: Credential,
  pathPaymentId: string | undefined,
  rateLimit: RequestRateLimit,
): Promise<Principal> {
  switch (credential.mode) {
    case "client": {
      const limitKey = rateLimitKeys.client(credential.clientId);
      const row = await lookupWithLimits({
        db,
        rateLimit,
        checks: [{ policy: rateLimitPolicies.client, key: limitKey }],
        folded: async (nowMs) => {
          const [found] = await clientCredentialLimitedQuery(db).execute({ clientId: credential.clientId, limitKey, nowMs });
          const { credentialId, secretHash, service } = found ?? {};
          return {
            row: credentialId && secretHash && service ? { credentialId, secretHash, service } : undefined,
            decisions: found ? [{ tatMs: found.limitTat, allowed: found.limitAllowed }] : [],
          };
        },
        plain: async () => (await clientCredentialQuery(db).execute({ clientId: credential.clientId }))[0],
      });
      const presentedHash = hashSecret(credential.clientSecret);
      if (!row || !constantTimeEqual(presentedHash, row.secretHash)) throw invalidCredentials();
      return { mode: "client", service: row.service, credentialId: row.credentialId, clientId: credential.clientId };
    }
    case "merchant": {
      // Rule 1: the publishable key alone, or the client secret alone, is refused.
      if (!credential.clientSecret) throw invalidCredentials();
      // Longer than any key we issue: refused before it could become a store key.
      if (credential.publishableKey.length > MAX_PUBLISHABLE_KEY_LENGTH) throw invalidCredentials();
      const keyCheck = { policy: rateLimitPolicies.publishableKey, key: rateLimitKeys.publishableKey(credential.publishableKey) };
      const paymentId = paymentIdFromClientSecret(await getGatewayKey(db), credential.clientSecret);
      if (!paymentId) {
        // A forged secret names no payment we could charge without letting anyone drain a
        // real payment's quota; the publishable key it came with pays instead.
        await rateLimit.enforce(db, [keyCheck]);
        throw invalidCredentials();
      }
      const secretCheck = { policy: rateLimitPolicies.clientSecret, key: rateLimitKeys.clientSecret(paymentId) };
      const row = await lookupWithLimits({
        db,
        rateLimit,
        checks: [secretCheck, keyCheck],
        folded: async (nowMs) => {
          const [found] = await publishableKeyLimitedQuery(db).execute({
            publishableKey: credential.publishableKey,
            secretLimitKey: secretCheck.key,
            keyLimitKey: keyCheck.key,
            nowMs,
          });
          return {
            row: found?.service ? { service: found.service } : undefined,
            decisions: found
              ? [
                  { tatMs: found.secretTat, allowed: found.secretAllowed },
                  { tatMs: found.keyTat, allowed: found.keyAllowed },
                ]
              : [],
          };
        },
        plain: async () => (await publishableKeyQuery(db).execute({ publishableKey: credential.publishableKey }))[0],
      });
      if (!row || (pathPaymentId !== undefined && paymentId !== pathPaymentId)) throw invalidCredentials();
      return {
        mode: "merchant",
        service: row.service,
        paymentId,
        publishableKey: credential.publishableKey,
        clientSecret: credential.clientSecret,
      };
    }
    case "user": {
      const hash = hashSecret(credential.accessToken);
      const row = await lookupWithLimits({
        db,
        rateLimit,
        checks: (found: { customerId: string }) => [
          { policy: rateLimitPolicies.customer, key: rateLimitKeys.customer(found.customerId) },
        ],
        folded: async (nowMs) => {
          const [found] = await accessTokenLimitedQuery(db).execute({ hash, nowMs });
          return { row: found, decisions: found ? [{ tatMs: found.limitTat, allowed: found.limitAllowed }] : [] };
        },
        plain: async () => (await accessTokenQuery(db).execute({ hash }))[0],
      });
      if (!row) throw invalidCredentials();
      return { mode: "user", service: row.service, customerId: row.customerId, tokenId: row.tokenId };
    }
    case "intent_secret": {
      const paymentId = await paymentIdFor(db, credential.clientSecret, pathPaymentId);
      // Card finalize: the same per-secret quota as merchant_auth, so switching credential
      // kinds buys no extra requests. No lookup here to fold into: one statement of its own.
      await rateLimit.enforce(db, [{ policy: rateLimitPolicies.clientSecret, key: rateLimitKeys.clientSecret(paymentId) }]);
      return { mode: "intent_secret", paymentId, clientSecret: credential.clientSecret };
    }
  }
}

const MAX_PUBLISHABLE_KEY_LENGTH = 128;

async function paymentIdFor(db: Db, clientSecret: string, pathPaymentId?: string): Promise<string> {
  const paymentId = paymentIdFromClientSecret(await getGatewayKey(db), clientSecret);
  if (!paymentId || (pathPaymentId !== undefined && paymentId !== pathPaymentId)) throw invalidCredentials();
  return paymentId;
}

function checkServiceHeader(headers: Headers, service: ServiceContext, required: boolean) {
  const sent = headers.get("x-service");
  if (!sent) {
    if (required) {
      throw new ApiError("validation_error", "The x-service header is required.", [
        { path: "x-service", message: "Required" },
      ]);
    }
    return;
  }
  if (sent !== service.code) throw invalidCredentials();
}

function checkOrigin(headers: Headers, service: ServiceContext) {
  const origin = headers.get("origin");
  if (origin === null) return; // A server-side call: no browser origin to police.
  if (!isOriginAllowed(normalizeOrigin(origin) ?? "", service.allowedOrigins)) {
    throw new ApiError("origin_not_allowed", "This Origin is not on the service's allow-list.");
  }
}

export function normalizeOrigin(value: string): string | null {
  try {
    const url = new URL(value);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    return url.origin;
  } catch {
    return null;
  }
}
