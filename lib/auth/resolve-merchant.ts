import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { prepared } from "../db/prepared";
import { apiCredentials, payments, services } from "../db/schema";
import { getGatewayKey } from "../crypto/gateway-key";
import { invalidCredentials } from "../errors/api-error";
import { gcraCtes } from "../rate-limit/gcra-sql";
import { lookupWithLimits } from "../rate-limit/lookup-with-limits";
import { rateLimitKeys, rateLimitPolicies } from "../rate-limit/policies";
import type { RequestRateLimit } from "../rate-limit/request-rate-limit";
import { paymentIdFromClientSecret } from "./client-secret";
import type { Credential } from "./detect-credential";
import type { BrowserPrincipal } from "./principal";
import { pathPaymentJoin, pathPaymentParameter, type WithPathPayment } from "./path-payment";
import type { PaymentRow } from "../db/payment-record";
import { serviceColumns } from "./service-columns";

/** Longer than any key we issue: refused before it could become a store key. */
const MAX_PUBLISHABLE_KEY_LENGTH = 128;

const publishableKeyQuery = (db: Db) =>
  prepared(db, "auth_publishable_key", (db) =>
    db
      .select({ service: serviceColumns })
      .from(apiCredentials)
      .innerJoin(services, eq(services.id, apiCredentials.serviceId))
      .where(eq(apiCredentials.publishableKey, sql.placeholder("publishableKey")))
      .prepare("auth_publishable_key"),
  );

// A genuine client secret: the secret's limit, then the publishable key's, charged in the
// lookup's statement (PostgreSQL store); the `_with_payment` variant also reads the payment
// the request names (path-payment.ts).
const publishableKeyLimitedQuery = (db: Db, withPayment: boolean) => {
  const name = withPayment ? "auth_publishable_key_limited_with_payment" : "auth_publishable_key_limited";
  return prepared(db, name, (db) => {
    const [secretLimit, keyLimit] = gcraCtes(
      db,
      [
        { alias: "secret_limit", policy: rateLimitPolicies.clientSecret, key: sql.placeholder("secretLimitKey") },
        { alias: "key_limit", policy: rateLimitPolicies.publishableKey, key: sql.placeholder("keyLimitKey") },
      ],
      sql.placeholder("nowMs"),
    );
    const lookup = db
      .with(secretLimit!, keyLimit!)
      .select({
        service: serviceColumns,
        secretTat: secretLimit!.tatMs,
        secretAllowed: secretLimit!.allowed,
        keyTat: keyLimit!.tatMs,
        keyAllowed: keyLimit!.allowed,
        ...(withPayment ? { payment: payments } : {}),
      })
      .from(secretLimit!)
      .innerJoin(keyLimit!, sql`true`)
      .leftJoin(apiCredentials, eq(apiCredentials.publishableKey, sql.placeholder("publishableKey")))
      .leftJoin(services, eq(services.id, apiCredentials.serviceId));
    return (withPayment ? lookup.leftJoin(payments, pathPaymentJoin()) : lookup).prepare(name);
  });
};

/**
 * merchant_auth: a publishable key with the payment's client secret (rule 1: either alone is
 * refused). The secret names the payment, which must be the path's.
 */
export async function resolveMerchant(
  db: Db,
  credential: Extract<Credential, { mode: "merchant" }>,
  pathPaymentId: string | undefined,
  rateLimit: RequestRateLimit,
  readPaymentId?: string,
): Promise<WithPathPayment<BrowserPrincipal>> {
  let pathPayment: PaymentRow | null | undefined;
  const { publishableKey, clientSecret } = credential;
  if (!clientSecret || publishableKey.length > MAX_PUBLISHABLE_KEY_LENGTH) throw invalidCredentials();
  const keyCheck = { policy: rateLimitPolicies.publishableKey, key: rateLimitKeys.publishableKey(publishableKey) };
  const paymentId = paymentIdFromClientSecret(await getGatewayKey(db), clientSecret);
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
    inOneStatement: async (nowMs) => {
      const [found] = await publishableKeyLimitedQuery(db, readPaymentId !== undefined).execute({
        publishableKey,
        secretLimitKey: secretCheck.key,
        keyLimitKey: keyCheck.key,
        nowMs,
        ...pathPaymentParameter(readPaymentId),
      });
      if (readPaymentId !== undefined) pathPayment = found?.payment ?? null;
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
    lookupOnly: async () => (await publishableKeyQuery(db).execute({ publishableKey }))[0],
  });
  if (!row || (pathPaymentId !== undefined && paymentId !== pathPaymentId)) throw invalidCredentials();
  return {
    principal: { mode: "merchant", service: row.service, paymentId, publishableKey, clientSecret },
    pathPayment,
  };
}
