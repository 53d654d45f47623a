import { createHash } from "node:crypto";
import { API_CAUSE, type StateChangeCause } from "../core/state-change-cause";
import { and, eq, sql } from "drizzle-orm";
import { clientSecretFor } from "../../auth/client-secret";
import type { FoldedClientAuth } from "../../auth/authenticate";
import type { ClientPrincipal, ServiceContext } from "../../auth/principal";
import { serviceClock, systemClock, type Clock } from "../../clock";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { prepared } from "../../db/prepared";
import { payments } from "../../db/schema";
import { ApiError } from "../../errors/api-error";
import { canonicalJson } from "../../idempotency/request-fingerprint";
import { minorUnitsOrThrow } from "../../money/amount.schema";
import type { CreatePaymentIntentBody, CreatePaymentIntentQuery } from "./create-payment-intent.schema";
import { intentExpiresAt } from "../core/payment-expiry";
import { hostedCheckoutUrl } from "../core/hosted-page-token";
import type { PaymentRow } from "../../db/payment-record";
import { insertIntent, type IntentInsertResult } from "./insert-intent";
import { insertIntentAsClient } from "./insert-intent-as-client";

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
  options: { service: ServiceContext; query: CreatePaymentIntentQuery; input: CreatePaymentIntentBody; clock: Clock; cause: StateChangeCause },
): Promise<CreatedIntent> {
  const { service, query, input } = options;
  assertCountry(service, query.countryCode, input.actionCountryCode);
  const draft = intentDraft(input);
  const now = options.clock.now();
  const result = await insertIntent(db, { ...draft, serviceId: service.id, expiresAt: intentExpiresAt(now), now, cause: options.cause });
  return answerCreate(db, service, draft, result);
}

/**
 * `createPaymentIntent` with client_auth folded into its statement (authenticate.ts
 * `foldedClientAuth`): auth and create in one round trip. The answers and their order are
 * createPaymentIntent's after authenticate's: 429 and 401 first, then the country, then the
 * rest. A request that would fail before the statement (two countries, or an amount its
 * currency cannot hold, which the body's schema already refuses) authenticates the usual way
 * first, so a bad credential is still a 401.
 */
export async function createPaymentIntentAsClient(
  db: Db,
  options: { auth: FoldedClientAuth; authenticate: () => Promise<ClientPrincipal>; query: CreatePaymentIntentQuery; input: CreatePaymentIntentBody; clock?: Clock },
): Promise<{ principal: ClientPrincipal } & CreatedIntent> {
  const { auth, query, input } = options;
  const base = options.clock ?? systemClock;
  const draft = input.actionCountryCode === query.countryCode ? draftOrNull(input) : null;
  if (!draft) {
    // createPaymentIntent answers the same refusal, after auth has answered first.
    const principal = await options.authenticate();
    return { principal, ...(await createPaymentIntent(db, { service: principal.service, query, input, clock: serviceClock(principal.service, base), cause: API_CAUSE })) };
  }
  const { lookup, ...result } = await insertIntentAsClient(db, auth, { ...draft, country: query.countryCode }, base.now());
  const principal = auth.principalOf(lookup);
  assertCountry(principal.service, query.countryCode, input.actionCountryCode);
  if (result.customerActive === null) throw new Error("an admitted create wrote no customer");
  return { principal, ...(await answerCreate(db, principal.service, draft, { ...result, customerActive: result.customerActive })) };
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

function draftOrNull(input: CreatePaymentIntentBody): ReturnType<typeof intentDraft> | null {
  try {
    return intentDraft(input);
  } catch (error) {
    if (error instanceof ApiError) return null;
    throw error;
  }
}

/** The new intent, or the one this actionId already has when the parameters are the same. */
async function answerCreate(
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
    created ?? sameRequest(existing ?? (await committedMeanwhile(db, service.id, draft.actionId)), draft.requestFingerprint);
  const gatewayKey = await getGatewayKey(db);
  return { payment, clientSecret: clientSecretFor(gatewayKey, payment.id), checkoutUrl: hostedCheckoutUrl(gatewayKey, payment.id) };
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
