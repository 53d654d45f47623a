import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { serviceNowSql } from "../clock";
import type { Db } from "../db/client";
import { prepared } from "../db/prepared";
import { customers, customerTokens, payments, services } from "../db/schema";
import { hashSecret } from "../crypto/secrets";
import { invalidCredentials } from "../errors/api-error";
import { gcraCtes } from "../rate-limit/gcra-sql";
import { lookupWithLimits } from "../rate-limit/lookup-with-limits";
import { rateLimitKeys, rateLimitPolicies } from "../rate-limit/policies";
import type { RequestRateLimit } from "../rate-limit/request-rate-limit";
import type { Credential } from "./detect-credential";
import type { UserPrincipal } from "./principal";
import { pathPaymentJoin, pathPaymentParameter, type WithPathPayment } from "./path-payment";
import type { PaymentRow } from "../db/payment-record";
import { serviceColumns } from "./service-columns";

// Token expiry reads the service's sandbox clock, like every other time rule.
const liveAccessToken = () =>
  and(
    eq(customerTokens.accessTokenHash, sql.placeholder("hash")),
    isNull(customerTokens.revokedAt),
    isNull(customerTokens.rotatedAt),
    gt(customerTokens.accessExpiresAt, serviceNowSql(services.clockOffsetSeconds)),
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
// the customer's quota. The `_with_payment` variant also reads the payment the request names
// (path-payment.ts).
const accessTokenLimitedQuery = (db: Db, withPayment: boolean) => {
  const name = withPayment ? "auth_access_token_limited_with_payment" : "auth_access_token_limited";
  return prepared(db, name, (db) => {
    const token = db.$with("token").as(
      db
        .select({
          tokenId: customerTokens.id,
          customerId: customerTokens.customerId,
          serviceId: customerTokens.serviceId,
        })
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
    const lookup = db
      .with(token, limit!)
      .select({
        tokenId: token.tokenId,
        customerId: token.customerId,
        service: serviceColumns,
        limitTat: limit!.tatMs,
        limitAllowed: limit!.allowed,
        ...(withPayment ? { payment: payments } : {}),
      })
      .from(token)
      .innerJoin(services, eq(services.id, token.serviceId))
      .innerJoin(limit!, sql`true`);
    return (withPayment ? lookup.leftJoin(payments, pathPaymentJoin()) : lookup).prepare(name);
  });
};

/** user_auth: a live customer access token; the customer it names pays the limit. */
export async function resolveUserToken(
  db: Db,
  credential: Extract<Credential, { mode: "user" }>,
  rateLimit: RequestRateLimit,
  readPaymentId?: string,
): Promise<WithPathPayment<UserPrincipal>> {
  let pathPayment: PaymentRow | null | undefined;
  const hash = hashSecret(credential.accessToken);
  const row = await lookupWithLimits({
    db,
    rateLimit,
    checks: (found: { customerId: string }) => [
      { policy: rateLimitPolicies.customer, key: rateLimitKeys.customer(found.customerId) },
    ],
    inOneStatement: async (nowMs) => {
      const [found] = await accessTokenLimitedQuery(db, readPaymentId !== undefined).execute({
        hash,
        nowMs,
        ...pathPaymentParameter(readPaymentId),
      });
      // No live token, no row: the payment stays unread, and the refusal comes first anyway.
      if (readPaymentId !== undefined && found) pathPayment = found.payment ?? null;
      return { row: found, decisions: found ? [{ tatMs: found.limitTat, allowed: found.limitAllowed }] : [] };
    },
    lookupOnly: async () => (await accessTokenQuery(db).execute({ hash }))[0],
  });
  if (!row) throw invalidCredentials();
  return {
    principal: { mode: "user", service: row.service, customerId: row.customerId, tokenId: row.tokenId },
    pathPayment,
  };
}
