import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { prepared } from "../db/prepared";
import { apiCredentials, customers, customerTokens, services } from "../db/schema";
import { getGatewayKey } from "../crypto/gateway-key";
import { constantTimeEqual, hashSecret } from "../crypto/secrets";
import { ApiError, invalidCredentials } from "../http/api-error";
import { paymentIdFromClientSecret } from "./client-secret";
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

const publishableKeyQuery = (db: Db) =>
  prepared(db, "auth_publishable_key", (db) =>
    db
      .select({ service: serviceColumns })
      .from(apiCredentials)
      .innerJoin(services, eq(services.id, apiCredentials.serviceId))
      .where(eq(apiCredentials.publishableKey, sql.placeholder("publishableKey")))
      .prepare("auth_publishable_key"),
  );

// Token expiry reads the service's sandbox clock, like every other time rule.
const accessTokenQuery = (db: Db) =>
  prepared(db, "auth_access_token", (db) =>
    db
      .select({ tokenId: customerTokens.id, customerId: customerTokens.customerId, service: serviceColumns })
      .from(customerTokens)
      .innerJoin(customers, eq(customers.id, customerTokens.customerId))
      .innerJoin(services, eq(services.id, customerTokens.serviceId))
      .where(
        and(
          eq(customerTokens.accessTokenHash, sql.placeholder("hash")),
          isNull(customerTokens.revokedAt),
          isNull(customerTokens.rotatedAt),
          gt(customerTokens.accessExpiresAt, sql`now() + make_interval(secs => ${services.clockOffsetSeconds})`),
          eq(customers.isActive, true),
        ),
      )
      .prepare("auth_access_token"),
  );

export interface AuthenticateOptions<M extends AuthMode> {
  modes: readonly M[];
  /** The `:id` of the path, which a client secret must name. */
  paymentId?: string;
  /** Interface: x-service is required for client_auth and user_auth on some endpoints. */
  requireServiceHeader?: boolean;
}

/**
 * Resolves the request's credential into a principal of one of the accepted modes. Every
 * failure is the same 401, so a caller learns nothing about which part was wrong.
 */
export async function authenticate<M extends AuthMode>(
  db: Db,
  request: Request,
  options: AuthenticateOptions<M>,
): Promise<PrincipalOf<M>> {
  const credential = detectCredential(request.headers);
  if (!credential || !(options.modes as readonly AuthMode[]).includes(credential.mode)) throw invalidCredentials();
  const principal = await resolveCredential(db, credential, options.paymentId);
  if (principal.mode === "client" || principal.mode === "user") {
    checkServiceHeader(request.headers, principal.service, options.requireServiceHeader ?? false);
  }
  if (principal.mode === "merchant") checkOrigin(request.headers, principal.service);
  return principal as PrincipalOf<M>;
}

async function resolveCredential(db: Db, credential: Credential, pathPaymentId?: string): Promise<Principal> {
  switch (credential.mode) {
    case "client": {
      const [row] = await clientCredentialQuery(db).execute({ clientId: credential.clientId });
      const presentedHash = hashSecret(credential.clientSecret);
      if (!row || !constantTimeEqual(presentedHash, row.secretHash)) throw invalidCredentials();
      return { mode: "client", service: row.service, credentialId: row.credentialId, clientId: credential.clientId };
    }
    case "merchant": {
      // Rule 1: the publishable key alone, or the client secret alone, is refused.
      if (!credential.clientSecret) throw invalidCredentials();
      const paymentId = await paymentIdFor(db, credential.clientSecret, pathPaymentId);
      const [row] = await publishableKeyQuery(db).execute({ publishableKey: credential.publishableKey });
      if (!row) throw invalidCredentials();
      return {
        mode: "merchant",
        service: row.service,
        paymentId,
        publishableKey: credential.publishableKey,
        clientSecret: credential.clientSecret,
      };
    }
    case "user": {
      const [row] = await accessTokenQuery(db).execute({ hash: hashSecret(credential.accessToken) });
      if (!row) throw invalidCredentials();
      return { mode: "user", service: row.service, customerId: row.customerId, tokenId: row.tokenId };
    }
    case "intent_secret": {
      const paymentId = await paymentIdFor(db, credential.clientSecret, pathPaymentId);
      return { mode: "intent_secret", paymentId, clientSecret: credential.clientSecret };
    }
  }
}

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
  if (!service.allowedOrigins.includes(normalizeOrigin(origin) ?? "")) {
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
