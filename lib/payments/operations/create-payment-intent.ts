import { createHash } from "node:crypto";
import type { StateChangeCause } from "../core/state-change-cause";
import { and, eq, sql } from "drizzle-orm";
import { clientSecretFor } from "../../auth/client-secret";
import type { ServiceContext } from "../../auth/principal";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import { payments } from "../../db/schema";
import { ApiError } from "../../errors/api-error";
import { canonicalJson } from "../../idempotency/request-fingerprint";
import { minorUnitsOrThrow } from "../../money/amount.schema";
import type { CreatePaymentIntentBody, CreatePaymentIntentQuery } from "./create-payment-intent.schema";
import { hostedCheckoutUrl } from "../core/hosted-page-token";
import type { PaymentRow } from "../../db/payment-record";
import type { IntentInsertResult } from "./insert-intent";
import type { IntentCreator } from "./intent-creator";

/** What create answers: the intent, its client secret and its hosted checkout page (contract 14). */
export interface CreatedIntent {
  payment: PaymentRow;
  clientSecret: string;
  checkoutUrl: string;
}

const paymentByActionQuery = (db: Db) =>
  prepared(db, "payment_by_action", (db) =>
    db
      .select()
      .from(payments)
      .where(
        and(eq(payments.serviceId, sql.placeholder("serviceId")), eq(payments.actionId, sql.placeholder("actionId"))),
      )
      .prepare("payment_by_action"),
  );

/**
 * Creates an intent, idempotent on (service, actionId). The rules, in the order a caller meets them:
 * 1. the credential: its rate limit (429), then its verdict (401): the creator's, before anything else;
 * 2. the country: the query's enabled for the service, the body's equal to it (400, both together);
 * 3. the amount: one its currency's minor units can hold (400);
 * 4. the customer of `userId`: created on first sight, refused when deactivated (400);
 * 5. the actionId: the same parameters again answer the same intent (201), others are 422 idempotency_conflict.
 * One round trip besides auth, none besides it when the creator judges auth in the insert
 * (intent-creator.ts); a second only when a concurrent create with the same actionId won the race.
 */
export async function createPaymentIntent(
  db: Db,
  options: {
    creator: IntentCreator;
    query: CreatePaymentIntentQuery;
    input: CreatePaymentIntentBody;
    cause: StateChangeCause;
  },
): Promise<CreatedIntent> {
  const { creator, query, input } = options;
  // Rules 2 and 3 that the body alone breaks are answered before anything is written, after rule 1.
  const draft = input.actionCountryCode === query.countryCode ? draftUnlessRefused(input) : null;
  if (!draft) {
    assertCountry(await creator.service(), query.countryCode, input.actionCountryCode);
    intentDraft(input);
    throw new Error("a create refused before its insert broke no rule");
  }
  const { service, inserted } = await creator.insert(db, { ...draft, cause: options.cause });
  assertCountry(service, query.countryCode, input.actionCountryCode);
  if (!inserted) throw new Error("an admitted create wrote no customer");
  return newOrSameIntent(db, service, draft, inserted);
}

/** What create writes that the body alone decides; throws 400 for an amount its currency cannot hold. */
function intentDraft(input: CreatePaymentIntentBody) {
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
  return {
    phone: input.userId,
    actionId: input.actionId,
    requestFingerprint: createHash("sha256").update(canonicalJson(parameters)).digest("hex"),
    amountMinor,
    currency: parameters.currency,
    country: parameters.country,
    captureMethod: parameters.captureMethod,
    transactionType: parameters.transactionType,
    metaData: parameters.metaData,
  };
}

/** The draft, or null when the body alone breaks a rule (answered, in the rules' order, by the caller). */
function draftUnlessRefused(input: CreatePaymentIntentBody): ReturnType<typeof intentDraft> | null {
  try {
    return intentDraft(input);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** The new intent, or the one this actionId already has when the parameters are the same. */
async function newOrSameIntent(
  db: Db,
  service: ServiceContext,
  draft: { actionId: string; requestFingerprint: string },
  { customerActive, created, existing }: IntentInsertResult,
): Promise<CreatedIntent> {
  if (!customerActive) {
    throw new ApiError("validation_error", "The request is invalid.", [
      { path: "userId", message: "this customer is deactivated" },
    ]);
  }
  const payment =
    created ??
    sameRequest(existing ?? (await intentOfConcurrentCreate(db, service.id, draft.actionId)), draft.requestFingerprint);
  const gatewayKey = await getGatewayKey(db);
  return {
    payment,
    clientSecret: clientSecretFor(gatewayKey, payment.id),
    checkoutUrl: hostedCheckoutUrl(gatewayKey, payment.id),
  };
}

/** A concurrent create took the actionId while our insert waited on it: its intent, read now. */
async function intentOfConcurrentCreate(db: Db, serviceId: string, actionId: string): Promise<PaymentRow> {
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
    details.push({
      path: "query.countryCode",
      message: `is not enabled for this service (${service.countries.join(", ")})`,
    });
  }
  if (bodyCountry !== queryCountry) {
    details.push({ path: "actionCountryCode", message: "must equal the countryCode query parameter" });
  }
  if (details.length > 0) throw new ApiError("validation_error", "The request is invalid.", details);
}
