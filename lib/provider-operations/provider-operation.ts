import { createHash, randomUUID } from "node:crypto";
import { getConfig } from "../config";
import type { Db } from "../db/client";
import type { providerOperations } from "../db/schema";
import type { PaymentRow } from "../db/payment-record";

export type ProviderOperationRow = typeof providerOperations.$inferSelect;
export type ProviderName = ProviderOperationRow["provider"];

/** What the provider answered to a successful call. */
export interface ProviderAnswer {
  reference: string | null;
  /** Figures settling needs (e.g. the part of an authorization released by a partial capture). */
  data?: Record<string, unknown>;
}

/** The provider could not be reached or did not answer in time: it may or may not have applied the call. */
export class ProviderUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ProviderUnavailableError";
  }
}

/** The provider answered and refused: nothing was applied. */
export class ProviderRefusedError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "ProviderRefusedError";
  }
}

/**
 * The operations each provider is asked for: what provider_operations.kind holds for it. The
 * card provider's and the wallet's here; a redirect provider's are the archetype's kinds its
 * capabilities use (redirectOperationKinds, lib/payment-methods/redirect/redirect-operations.ts),
 * so a new redirect provider adds nothing here. Every pair has exactly one handler in
 * PROVIDER_OPERATION_HANDLERS (lib/provider-operation-registry), which
 * tests/unit/provider-operation-handlers.test.ts checks.
 */
export const PROVIDER_OPERATION_KINDS = {
  card: ["capture", "cancel", "refund", "detach"],
  wallet: ["debit", "hold", "capture", "release", "refund"],
} as const satisfies Partial<Record<ProviderName, readonly string[]>>;
/**
 * What the redirect archetype (contract 15) may ask a provider: register the order, refund it, and capture or
 * release a hold (or close an unpaid order).
 */
export const REDIRECT_OPERATION_KINDS = ["register", "capture", "release", "refund"] as const;
export type ProviderOperationKind =
  | (typeof PROVIDER_OPERATION_KINDS)[keyof typeof PROVIDER_OPERATION_KINDS][number]
  | (typeof REDIRECT_OPERATION_KINDS)[number];

/**
 * How one kind of operation calls its provider and settles the payment. One per (provider,
 * kind), listed in PROVIDER_OPERATION_HANDLERS; the request path and the reconciliation job
 * both use it, so an operation left unknown by a crash is finished exactly the way the request
 * would have finished it.
 */
/** Who calls: reconciliation, which holds the operation's lease (one caller at a time), or a request. */
export interface ProviderCallContext {
  reconciling: boolean;
  /** The caller recorded the operation itself just now (beginProviderOperation): nobody can have called for it yet. */
  recordedNow: boolean;
}

export interface ProviderOperationHandler {
  provider: ProviderName;
  kind: ProviderOperationKind;
  /**
   * Calls the provider with `operation.id` as its idempotency key. Runs outside any transaction
   * (the guard refuses otherwise); calling it again with the same operation must be safe.
   * Throws ProviderRefusedError for a definitive refusal; anything else counts as "unknown".
   */
  call(operation: ProviderOperationRow, context?: ProviderCallContext): Promise<ProviderAnswer>;
  /**
   * Inside the settle transaction, with the payment locked: the payment change, its ledger
   * rows and its outbox row. Returns what a replayed request needs (stored as `result`).
   */
  settle(
    tx: Db,
    context: { operation: ProviderOperationRow; payment: PaymentRow; answer: ProviderAnswer; now: Date },
  ): Promise<Record<string, unknown>>;
  /** Inside a transaction with the payment locked: what a refusal changes (default: nothing). */
  fail?(
    tx: Db,
    context: { operation: ProviderOperationRow; payment: PaymentRow; code: string; now: Date },
  ): Promise<void>;
}

/** Finds the handler of a recorded operation (handlerOf in lib/provider-operation-registry). */
export type HandlerLookup = (operation: Pick<ProviderOperationRow, "provider" | "kind">) => ProviderOperationHandler;

/**
 * The operation id, which is also the provider's idempotency key: derived from the caller's
 * Idempotency-Key when there is one (so a retry finds the same operation), else random.
 */
export function operationId(requestKey: string | undefined): string {
  if (!requestKey) return `op_${randomUUID().replace(/-/g, "")}`;
  return `op_${createHash("sha256").update(requestKey).digest("hex").slice(0, 40)}`;
}

/** How long a provider call may take before the operation is treated as unknown (PROVIDER_CALL_TIMEOUT_MS). */
export function providerCallTimeoutMs(): number {
  return getConfig().PROVIDER_CALL_TIMEOUT_MS;
}
/** How long a request owns a pending operation before reconciliation may take it over. */
export const OPERATION_LEASE_MS = 30_000;
/** What a 503 tells the caller to wait before retrying (seconds). */
export const RETRY_AFTER_SECONDS = 5;
