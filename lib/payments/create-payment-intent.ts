import { createHash } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { clientSecretFor } from "../auth/client-secret";
import type { ServiceContext } from "../auth/principal";
import type { Clock } from "../clock";
import { getGatewayKey } from "../crypto/gateway-key";
import type { Db } from "../db/client";
import { prepared } from "../db/prepared";
import { customers, payments } from "../db/schema";
import { ApiError } from "../http/api-error";
import { canonicalJson } from "../idempotency/request-fingerprint";
import { minorUnitsOrThrow } from "../money/amount.schema";
import type { CreatePaymentIntentBody, CreatePaymentIntentQuery } from "./create-payment-intent.schema";
import { intentExpiresAt } from "./payment-expiry";
import type { PaymentRow } from "./payment-record";

// The customer of `userId`, created on first sight (interface: explicit registration is
// optional). The no-op update makes the row come back whether it was inserted or not.
const customerForPaymentQuery = (db: Db) =>
  prepared(db, "customer_for_payment", (db) =>
    db
      .insert(customers)
      .values({
        serviceId: sql.placeholder("serviceId"),
        name: sql.placeholder("phone"),
        phone: sql.placeholder("phone"),
      })
      .onConflictDoUpdate({ target: [customers.serviceId, customers.phone], set: { updatedAt: sql`${customers.updatedAt}` } })
      .returning({ id: customers.id, isActive: customers.isActive })
      .prepare("customer_for_payment"),
  );

const insertPaymentQuery = (db: Db) =>
  prepared(db, "payment_insert", (db) =>
    db
      .insert(payments)
      .values({
        serviceId: sql.placeholder("serviceId"),
        customerId: sql.placeholder("customerId"),
        actionId: sql.placeholder("actionId"),
        requestFingerprint: sql.placeholder("requestFingerprint"),
        amountMinor: sql.placeholder("amountMinor"),
        currency: sql.placeholder("currency"),
        country: sql.placeholder("country"),
        captureMethod: sql.placeholder("captureMethod"),
        transactionType: sql.placeholder("transactionType"),
        metaData: sql.placeholder("metaData"),
        expiresAt: sql.placeholder("expiresAt"),
        updatedAt: sql.placeholder("now"),
      })
      .onConflictDoNothing({ target: [payments.serviceId, payments.actionId] })
      .returning()
      .prepare("payment_insert"),
  );

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
 * the same intent, other parameters are 422 idempotency_conflict. Three round trips at most
 * besides auth: customer, intent, and the existing intent on a repeat.
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

  const [customer] = await customerForPaymentQuery(db).execute({ serviceId: service.id, phone: input.userId });
  if (!customer) throw new Error("customer could not be resolved");
  if (!customer.isActive) {
    throw new ApiError("validation_error", "The request is invalid.", [
      { path: "userId", message: "this customer is deactivated" },
    ]);
  }

  const now = options.clock.now();
  const [created] = await insertPaymentQuery(db).execute({
    serviceId: service.id,
    customerId: customer.id,
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
  const payment = created ?? (await existingIntent(db, service.id, input.actionId, requestFingerprint));
  return { payment, clientSecret: clientSecretFor(await getGatewayKey(db), payment.id) };
}

async function existingIntent(db: Db, serviceId: string, actionId: string, fingerprint: string): Promise<PaymentRow> {
  const [existing] = await paymentByActionQuery(db).execute({ serviceId, actionId });
  if (!existing) throw new Error("payment insert conflicted but no payment has this actionId");
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
