import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { FoldedClientAuth } from "../../auth/authenticate";
import { admittedClientCtes, type ClientLookupRow } from "../../auth/resolve-client";
import type { Db } from "../../db/client";
import type { PaymentRow } from "../../db/payment-record";
import { prepared } from "../../db/prepared";
import { apiCredentials, payments, services } from "../../db/schema";
import { INTENT_LIFETIME_MS } from "../core/payment-expiry";
import { API_CAUSE, causeColumns } from "../core/state-change-cause";
import { intentInsertCtes, type IntentInsert, type IntentInsertResult } from "./insert-intent";

/** What create writes, before auth has named the service (its id and clock come from the statement). */
export type IntentDraft = Omit<IntentInsert, "serviceId" | "expiresAt" | "now" | "cause">;

const existingPayment = alias(payments, "existing_payment");

// insert-intent.ts's statement with client_auth folded in: the client id's limit and the
// credential lookup run in the same statement, and the customer upsert and the intent insert
// select from `admitted_service` (resolve-client.ts), so they write only for a request auth
// admits and whose country the service has enabled. The intent's times are the service's
// clock (the app's reading plus the service's offset) as serviceClock gives them, and it
// expires INTENT_LIFETIME_MS later, as intentExpiresAt says.
const insertIntentAsClientQuery = (db: Db) =>
  prepared(db, "payment_intent_insert_as_client", (db) => {
    const p = (name: keyof IntentDraft | "country" | "nowIso" | "lifetimeMs") => sql.placeholder(name);
    const client = admittedClientCtes(db);
    const serviceNow = sql`(${p("nowIso")}::text::timestamptz + make_interval(secs => admitted_service.clock_offset_seconds))`;
    const { customer, created, createdChange, createdColumns } = intentInsertCtes(db, {
      serviceId: sql`admitted_service.id`,
      expiresAt: sql`${serviceNow} + make_interval(secs => ${p("lifetimeMs")}::bigint / 1000.0)`,
      now: serviceNow,
      from: sql`admitted_service`,
      where: sql`${p("country")}::text = any(admitted_service.countries)`,
    });
    return db
      .with(client.limit, client.admitted, customer, created, createdChange)
      .select({ ...client.columns, customerActive: customer.isActive, created: createdColumns, existing: existingPayment })
      .from(client.limit)
      .leftJoin(apiCredentials, client.credentialJoin)
      .leftJoin(services, client.serviceJoin)
      .leftJoin(customer, sql`true`)
      .leftJoin(created, sql`true`)
      .leftJoin(existingPayment, and(eq(existingPayment.serviceId, services.id), eq(existingPayment.actionId, sql`${p("actionId")}::text`)))
      .prepare("payment_intent_insert_as_client");
  });

/**
 * One round trip for client_auth and create: the credential's verdict (`lookup`, for
 * `FoldedClientAuth.principalOf`) and, when it admitted the request, insert-intent's result. A
 * refused request, or one whose country the service has not enabled, wrote no customer and no
 * intent (its limit is charged all the same) and has `customerActive` null.
 */
export async function insertIntentAsClient(
  db: Db,
  auth: FoldedClientAuth,
  draft: IntentDraft,
  now: Date,
): Promise<{ lookup: ClientLookupRow | undefined } & Omit<IntentInsertResult, "customerActive"> & { customerActive: boolean | null }> {
  const [row] = await insertIntentAsClientQuery(db).execute({
    ...auth.parameters,
    ...draft,
    metaData: draft.metaData === null || draft.metaData === undefined ? null : JSON.stringify(draft.metaData),
    nowIso: now.toISOString(),
    lifetimeMs: INTENT_LIFETIME_MS,
    // Only the API's client_auth creates this way.
    ...causeColumns(API_CAUSE),
  });
  if (!row) return { lookup: undefined, customerActive: null, created: null, existing: null };
  const { customerActive, created, existing, ...lookup } = row;
  return { lookup, customerActive: customerActive ?? null, created: (created as PaymentRow | null) ?? null, existing: existing ?? null };
}
