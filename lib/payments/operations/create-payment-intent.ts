import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { clientSecretFor } from "../../auth/client-secret";
import type { ServiceContext } from "../../auth/principal";
import type { Clock } from "../../clock";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import { payments } from "../../db/schema";
import { ApiError } from "../../errors/api-error";
import { canonicalJson } from "../../idempotency/request-fingerprint";
import { minorUnitsOrThrow } from "../../money/amount.schema";
import type { CreatePaymentIntentBody, CreatePaymentIntentQuery } from "./create-payment-intent.schema";
import { intentExpiresAt } from "../core/payment-expiry";
import type { PaymentRow } from "../../db/payment-record";
import { insertIntent } from "./insert-intent";

const paymentByActionQuery = (db: Db) =>
  prepared(db, "payment_by_action", (db) =>
    db
      .select()
      .from(payments)
      .where(and(eq(payments.serviceId, sql.placeholder("serviceId")), eq(payments.actionId, sql.placeholder("actionId"))))
      .prepare("payment_by_action"),
  );

/**
 * Creates an intent, idempotent on (service, actionId): the same parameters again answer
 * the same intent, other parameters are 422 idempotency_conflict. One round trip besides auth
 * (insertIntent); a second only when a concurrent create with the same actionId won the race.
 */
export async function createPaymentIntent(
  db: Db,
  options: { service: ServiceContext; query: CreatePaymentIntentQuery; input: CreatePaymentIntentBody; clock: Clock },
): Promise<{ payment: PaymentRow; clientSecret: string }> {
  const { service, query, input } = options;
  assertCountry(service, query.countryCode, input.actionCountryCode);
  const amountMinor = minorUnitsOrThrow(input.amount, input.actionCurrencyCode);
  const parameters = {
    amountMinor,
    currency: input.actionCurrencyCode,
    country: input.actionCountryCode,
    userId: input.userId,
    captureMethod: input.captureMethod,
    transactionType: input.transactionType ?? null,
    metaData: input.metaData ?? null,
  };
  const requestFingerprint = createHash("sha256").update(canonicalJson(parameters)).digest("hex");

  const now = options.clock.now();
  const { customerActive, created, existing } = await insertIntent(db, {
    serviceId: service.id,
    phone: input.userId,
    actionId: input.actionId,
    requestFingerprint,
    amountMinor,
    currency: parameters.currency,
    country: parameters.country,
    captureMethod: parameters.captureMethod,
    transactionType: parameters.transactionType,
    metaData: parameters.metaData,
    expiresAt: intentExpiresAt(now),
    now,
  });
  if (!customerActive) {
    throw new ApiError("validation_error", "The request is invalid.", [
      { path: "userId", message: "this customer is deactivated" },
    ]);
  }
  const payment =
    created ?? sameRequest(existing ?? (await committedMeanwhile(db, service.id, input.actionId)), requestFingerprint);
  return { payment, clientSecret: clientSecretFor(await getGatewayKey(db), payment.id) };
}

/** A concurrent create took the actionId while our insert waited on it: its intent, read now. */
async function committedMeanwhile(db: Db, serviceId: string, actionId: string): Promise<PaymentRow> {
  const [existing] = await paymentByActionQuery(db).execute({ serviceId, actionId });
  if (!existing) throw new Error("payment insert conflicted but no payment has this actionId");
  return existing;
}

/** The same actionId again answers the same intent only with the same parameters. */
function sameRequest(existing: PaymentRow, fingerprint: string): PaymentRow {
  if (existing.requestFingerprint !== fingerprint) {
    throw new ApiError("idempotency_conflict", "This actionId was already used with different parameters.");
  }
  return existing;
}

/** The intent's country is the query's, must match the body's, and must be enabled for the service. */
function assertCountry(service: ServiceContext, queryCountry: string, bodyCountry: string) {
  const details = [];
  if (!service.countries.includes(queryCountry)) {
    details.push({ path: "query.countryCode", message: `is not enabled for this service (${service.countries.join(", ")})` });
  }
  if (bodyCountry !== queryCountry) {
    details.push({ path: "actionCountryCode", message: "must equal the countryCode query parameter" });
  }
  if (details.length > 0) throw new ApiError("validation_error", "The request is invalid.", details);
}
