import { and, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import type { ClientAuthInStatement } from "../auth/authenticate";
import type { ClientAuth } from "../http/endpoint";
import { admittedClientCtes } from "../auth/resolve-client";
import { serviceClock, systemClock } from "../clock";
import type { Db } from "../db/client";
import type { PaymentRow } from "../db/payment-record";
import { prepared } from "../db/prepared";
import { apiCredentials, payments, services } from "../db/schema";
import { INTENT_LIFETIME_MS } from "../payments/core/payment-expiry";
import { causeColumns } from "../payments/core/state-change-cause";
import { intentInsertCtes } from "../payments/operations/insert-intent";
import { serviceCreator, type IntentCreator, type IntentDraft } from "../payments/operations/intent-creator";

/**
 * Create's creator (intent-creator.ts) for an API request under client_auth: a principal
 * authenticated already creates on its own statement; otherwise the credential is judged inside
 * the insert (one round trip for auth and create, issue 35), and a request refused before the
 * insert authenticates the usual way first, so its refusal comes first.
 */
export function createWithClientAuth(clientAuth: ClientAuth): IntentCreator {
  if (clientAuth.principal)
    return serviceCreator(clientAuth.principal.service, serviceClock(clientAuth.principal.service));
  const { inStatement, authenticate } = clientAuth;
  return {
    async insert(db, draft) {
      const { lookup, ...inserted } = await insertIntentWithClientAuth(db, inStatement, draft, systemClock.now());
      const principal = inStatement.principalOf(lookup);
      return {
        service: principal.service,
        inserted: inserted.customerActive === null ? null : { ...inserted, customerActive: inserted.customerActive },
      };
    },
    service: async () => (await authenticate()).service,
  };
}

const existingPayment = alias(payments, "existing_payment");

// insert-intent.ts's statement with client_auth judged in it: the client id's limit and the
// credential lookup run in the same statement, and the customer upsert and the intent insert
// select from `admitted_service` (resolve-client.ts), so they write only for a request auth
// admits and whose country the service has enabled. The intent's times are the service's
// clock (the app's reading plus the service's offset) as serviceClock gives them, and it
// expires INTENT_LIFETIME_MS later, as intentExpiresAt says.
const insertIntentWithClientAuthQuery = (db: Db) =>
  prepared(db, "payment_intent_insert_as_client", (db) => {
    const p = (name: keyof IntentDraft | "nowIso" | "lifetimeMs") => sql.placeholder(name);
    const client = admittedClientCtes(db);
    const serviceNow = sql`(${p("nowIso")}::text::timestamptz
      + make_interval(secs => admitted_service.clock_offset_seconds))`;
    const { customer, created, createdChange, createdColumns } = intentInsertCtes(db, {
      serviceId: sql`admitted_service.id`,
      expiresAt: sql`${serviceNow} + make_interval(secs => ${p("lifetimeMs")}::bigint / 1000.0)`,
      now: serviceNow,
      from: sql`admitted_service`,
      where: sql`${p("country")}::text = any(admitted_service.countries)`,
    });
    return db
      .with(client.limit, client.admitted, customer, created, createdChange)
      .select({
        ...client.columns,
        customerActive: customer.isActive,
        created: createdColumns,
        existing: existingPayment,
      })
      .from(client.limit)
      .leftJoin(apiCredentials, client.credentialJoin)
      .leftJoin(services, client.serviceJoin)
      .leftJoin(customer, sql`true`)
      .leftJoin(created, sql`true`)
      .leftJoin(
        existingPayment,
        and(eq(existingPayment.serviceId, services.id), eq(existingPayment.actionId, sql`${p("actionId")}::text`)),
      )
      .prepare("payment_intent_insert_as_client");
  });

/**
 * One round trip for client_auth and create: the credential's verdict (`lookup`, for
 * `ClientAuthInStatement.principalOf`) and, when it admitted the request, insert-intent's result.
 * A refused request, or one whose country the service has not enabled, wrote no customer and
 * no intent (its limit is charged all the same) and has `customerActive` null.
 */
async function insertIntentWithClientAuth(db: Db, auth: ClientAuthInStatement, draft: IntentDraft, now: Date) {
  const { cause, ...values } = draft;
  const [row] = await insertIntentWithClientAuthQuery(db).execute({
    ...auth.parameters,
    ...values,
    metaData: values.metaData === null || values.metaData === undefined ? null : JSON.stringify(values.metaData),
    nowIso: now.toISOString(),
    lifetimeMs: INTENT_LIFETIME_MS,
    ...causeColumns(cause),
  });
  if (!row) return { lookup: undefined, customerActive: null, created: null, existing: null };
  const { customerActive, created, existing, ...lookup } = row;
  return {
    lookup,
    customerActive: customerActive ?? null,
    created: (created as PaymentRow | null) ?? null,
    existing: existing ?? null,
  };
}
