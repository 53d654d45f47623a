import { and, eq, lt, or, sql } from "drizzle-orm";
import { callerKey, type Principal } from "../auth/principal";
import { serviceClock, systemClock, type Clock } from "../clock";
import { getGatewayKey } from "../crypto/gateway-key";
import type { Db } from "../db/client";
import { idempotencyKeys } from "../db/schema";
import { ApiError } from "../errors/api-error";
import { zodDetails } from "../errors/zod-details";
import { logger } from "../log";
import {
  IDEMPOTENCY_HEADER,
  IDEMPOTENCY_LEASE,
  IDEMPOTENCY_TTL_MS,
  idempotencyKeySchema,
  type IdempotencyLease,
  type RememberedResponse,
} from "./idempotency.schema";
import { claimAfterError } from "./claim-after-error";
import { requestFingerprint } from "./request-fingerprint";
import { openResponse, sealResponse } from "./sealed-response";

/**
 * A hook a domain operation calls with its result inside its transaction, just before it
 * commits: endpoint.ts stores the request's answer to that result there, so the change and the
 * answer a retry replays commit together.
 */
export type BeforeCommit<R> = (tx: Db, result: R) => Promise<void>;

/** What the endpoint sees of the request's Idempotency-Key claim. */
export interface IdempotencyScope {
  /**
   * Completes the claim with the rendered answer on `tx`, the transaction of the change; undefined when the
   * request carries no key.
   */
  storeInTransaction?: (tx: Db, answer: { data: unknown; message: string; status?: number }) => Promise<void>;
  /**
   * Names this request's key (caller, endpoint, key) for a provider operation, so a retry of a
   * request that answered 503 provider_unavailable finds the same operation; undefined without a key.
   */
  operationKey?: string;
}

export type IdempotencyClaim =
  | { kind: "none"; scope: IdempotencyScope }
  | { kind: "replay"; response: RememberedResponse }
  | {
      kind: "owned";
      scope: IdempotencyScope;
      /** After the handler: remembers the answer unless the operation already did. */
      settle(db: Db, response: RememberedResponse): Promise<void>;
      /** After the handler threw `error`: forgets, remembers or releases the claim (claimAfterError). Never throws. */
      endWithError(db: Db, error: unknown): Promise<void>;
    };

const noScope: IdempotencyScope = {};
export const NO_IDEMPOTENCY: IdempotencyClaim = { kind: "none", scope: noScope };

/**
 * Contract section 5. Claims (caller, endpoint, key) before the operation runs, in its own
 * committed statement, so a concurrent duplicate sees the claim and answers 409. A finished
 * key replays; a key reused with another path or body is 422. The owner renews the claim's
 * lease until it settles or abandons it (`lease` overrides IDEMPOTENCY_LEASE, for tests).
 */
export async function claimIdempotencyKey(
  db: Db,
  options: {
    request: Request;
    principal: Principal;
    endpoint: string;
    body: unknown;
    defaultStatus: number;
    lease?: IdempotencyLease;
  },
): Promise<IdempotencyClaim> {
  const lease = options.lease ?? IDEMPOTENCY_LEASE;
  const rawKey = options.request.headers.get(IDEMPOTENCY_HEADER);
  if (rawKey === null) return NO_IDEMPOTENCY;
  const parsed = idempotencyKeySchema.safeParse(rawKey);
  if (!parsed.success) {
    throw new ApiError("validation_error", "The request is invalid.", zodDetails(parsed.error, IDEMPOTENCY_HEADER));
  }
  const scope = {
    callerKey: callerKey(options.principal),
    endpoint: options.endpoint,
    key: parsed.data,
    requestHash: requestFingerprint(options.request.method, new URL(options.request.url).pathname, options.body),
  };
  const clock: Clock = "service" in options.principal ? serviceClock(options.principal.service) : systemClock;

  for (let attempt = 0; attempt < 3; attempt += 1) {
    const now = clock.now();
    const claimed = await insertClaim(db, scope, now, lease);
    if (claimed)
      return ownedClaim(
        db,
        claimed.id,
        lease,
        options.defaultStatus,
        `${scope.callerKey}|${scope.endpoint}|${scope.key}`,
      );

    const [existing] = await db
      .select()
      .from(idempotencyKeys)
      .where(
        and(
          eq(idempotencyKeys.callerKey, scope.callerKey),
          eq(idempotencyKeys.endpoint, scope.endpoint),
          eq(idempotencyKeys.key, scope.key),
        ),
      );
    if (!existing) continue; // Purged between the two statements: claim again.
    if (existing.requestHash !== scope.requestHash) {
      throw new ApiError("idempotency_conflict", "This Idempotency-Key was already used with different parameters.");
    }
    if (existing.state === "in_progress") {
      throw new ApiError("request_in_progress", "A request with this Idempotency-Key is still being processed.");
    }
    const body = openResponse(await getGatewayKey(db), existing.responseBody);
    return {
      kind: "replay",
      response: { status: existing.responseStatus ?? 200, message: body.message, data: body.data, error: body.error },
    };
  }
  throw new Error("idempotency key could not be claimed");
}

/**
 * Inserts the claim, or takes over a row that expired (24 h) or whose request died while
 * holding it (lease passed, same parameters). Null: someone else's live claim or answer.
 */
async function insertClaim(
  db: Db,
  scope: { callerKey: string; endpoint: string; key: string; requestHash: string },
  now: Date,
  lease: IdempotencyLease,
) {
  const lockedUntil = leaseEnd(lease);
  const [row] = await db
    .insert(idempotencyKeys)
    .values({ ...scope, lockedUntil, expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS) })
    .onConflictDoUpdate({
      target: [idempotencyKeys.callerKey, idempotencyKeys.endpoint, idempotencyKeys.key],
      set: {
        requestHash: sql`excluded.request_hash`,
        state: "in_progress",
        responseStatus: null,
        responseBody: null,
        lockedUntil: sql`excluded.locked_until`,
        expiresAt: sql`excluded.expires_at`,
        createdAt: sql`now()`,
      },
      setWhere: or(
        lt(idempotencyKeys.expiresAt, now),
        and(
          eq(idempotencyKeys.state, "in_progress"),
          lt(idempotencyKeys.lockedUntil, sql`now()`),
          eq(idempotencyKeys.requestHash, sql`excluded.request_hash`),
        ),
      ),
    })
    .returning({ id: idempotencyKeys.id });
  return row ?? null;
}

const leaseEnd = (lease: IdempotencyLease) => sql`now() + make_interval(secs => ${lease.seconds})`;

/**
 * Renews the claim's lease on a timer while its request runs (a timer, not the request's own
 * steps, so a long provider call keeps it too). A renewal that fails (the database away) is
 * only logged: the request cannot finish without the database either, and once the lease has
 * passed a retry may take the claim over.
 */
function renewLeaseWhileRunning(db: Db, id: string, lease: IdempotencyLease): () => Promise<void> {
  let renewing: Promise<void> | undefined;
  const timer = setInterval(() => {
    renewing = db
      .update(idempotencyKeys)
      .set({ lockedUntil: leaseEnd(lease) })
      .where(and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.state, "in_progress")))
      .then(
        () => undefined,
        (error: unknown) => logger.warn({ err: error }, "idempotency lease not renewed"),
      );
  }, lease.renewMs);
  timer.unref();
  // Stopped, and any renewal already sent has landed: it cannot extend a lease the end released.
  return async () => {
    clearInterval(timer);
    await renewing;
  };
}

function ownedClaim(
  db: Db,
  id: string,
  lease: IdempotencyLease,
  defaultStatus: number,
  operationKey: string,
): IdempotencyClaim {
  const stopRenewing = renewLeaseWhileRunning(db, id, lease);
  let rememberedInTransaction = false;
  const store = async (db: Db, response: RememberedResponse) =>
    db
      .update(idempotencyKeys)
      .set({
        state: "completed",
        responseStatus: response.status,
        responseBody: sealResponse(await getGatewayKey(db), {
          message: response.message,
          data: response.data ?? null,
          ...(response.error ? { error: response.error } : {}),
        }),
      })
      .where(and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.state, "in_progress")));

  return {
    kind: "owned",
    scope: {
      operationKey,
      storeInTransaction: async (tx, answer) => {
        await store(tx, { status: answer.status ?? defaultStatus, message: answer.message, data: answer.data });
        rememberedInTransaction = true;
      },
    },
    async settle(db, response) {
      await stopRenewing();
      if (!rememberedInTransaction) await store(db, response);
    },
    async endWithError(db, error) {
      await stopRenewing();
      const mine = and(eq(idempotencyKeys.id, id), eq(idempotencyKeys.state, "in_progress"));
      try {
        switch (claimAfterError(error)) {
          case "forget":
            await db.delete(idempotencyKeys).where(mine);
            return;
          case "remember": {
            const refusal = error as ApiError;
            await store(db, {
              status: refusal.status,
              message: refusal.message,
              data: null,
              error: { name: refusal.errorName, details: refusal.details },
            });
            return;
          }
          case "release":
            // The lease ends now: a retry with the same parameters takes the claim over at once.
            await db
              .update(idempotencyKeys)
              .set({ lockedUntil: sql`now() - interval '1 second'` })
              .where(mine);
            return;
        }
      } catch (failure) {
        // The request's own error is the answer; a claim left as it was ends with its lease.
        logger.warn({ err: failure }, "idempotency claim not ended");
      }
    },
  };
}
