import { and, eq, sql } from "drizzle-orm";
import type { Db } from "../../lib/db/client";
import { preparedOn } from "../../lib/db/prepared";
import { otpChallenges, walletAccounts, walletEntries, walletHolds } from "../wallet/wallet-tables";
import { sqlRows } from "../../lib/db/sql-rows";
import { constantTimeEqual, hashSecret, randomToken } from "../../lib/crypto/secrets";
import { currencyExponent } from "../../lib/money/currencies";
import {
  OTP_ATTEMPTS,
  OTP_LIFETIME_MS,
  OTP_RESEND_COOLDOWN_MS,
  type OtpChallenge,
  type WalletAccountRef,
  type WalletBalance,
  type WalletMovement,
  type WalletOutcome,
  type WalletProvider,
} from "../../lib/providers/wallet/port";

/** Contract section 9: every sandbox wallet opens at 10,000 standard units per currency. */
export const SANDBOX_OPENING_BALANCE_UNITS = 10_000;
export const SANDBOX_OTP_CODE = "123456";

export function openingBalanceMinor(currency: string): number {
  return SANDBOX_OPENING_BALANCE_UNITS * 10 ** currencyExponent(currency);
}

const accountOf = (ref: WalletAccountRef) =>
  and(
    eq(walletAccounts.serviceId, ref.serviceId),
    eq(walletAccounts.customerId, ref.customerId),
    eq(walletAccounts.currency, ref.currency),
  );

// The statements every wallet proceed sends (balance, then the code's challenge opened), built once.
const balanceQuery = (db: Db) =>
  preparedOn(db, "sandbox_wallet_balance", (db) =>
    db
      .select({ balanceMinor: walletAccounts.balanceMinor, heldMinor: walletAccounts.heldMinor })
      .from(walletAccounts)
      .where(
        accountOf({
          serviceId: sql.placeholder("serviceId") as never,
          customerId: sql.placeholder("customerId") as never,
          currency: sql.placeholder("currency") as never,
        }),
      )
      .prepare("sandbox_wallet_balance"),
  );

const startOtpQuery = (tx: Db) =>
  preparedOn(tx, "sandbox_wallet_start_otp", (tx) => {
    const p = (name: string) => sql.placeholder(name) as never;
    return (
      tx
        .insert(otpChallenges)
        .values({
          paymentId: p("paymentId"),
          attemptsLeft: OTP_ATTEMPTS,
          codeSalt: p("codeSalt"),
          codeHash: p("codeHash"),
          expiresAt: p("expiresAt"),
          resendAvailableAt: p("resendAvailableAt"),
          updatedAt: p("updatedAt"),
        })
        // The payment's open challenge stands: a repeat (or a racing twin) inserts nothing.
        .onConflictDoNothing({ target: otpChallenges.paymentId })
        .returning()
        .prepare("sandbox_wallet_start_otp")
    );
  });

const otpChallengeQuery = (db: Db) =>
  preparedOn(db, "sandbox_wallet_otp_challenge", (db) =>
    db
      .select({
        attemptsLeft: otpChallenges.attemptsLeft,
        expiresAt: otpChallenges.expiresAt,
        resendAvailableAt: otpChallenges.resendAvailableAt,
      })
      .from(otpChallenges)
      .where(eq(otpChallenges.paymentId, sql.placeholder("paymentId")))
      .prepare("sandbox_wallet_otp_challenge"),
  );

type EntryKind = (typeof walletEntries.$inferInsert)["kind"];

/**
 * Opens the account on first use with its opening entry, and locks it for the rest of the
 * transaction (the no-op update of ON CONFLICT takes the row lock), so concurrent payments
 * of one customer queue here instead of racing on the balance. One statement.
 */
async function lockAccount(tx: Db, ref: WalletAccountRef) {
  const opening = openingBalanceMinor(ref.currency);
  const result = await tx.execute(sql`
    with account as (
      insert into ${walletAccounts} (service_id, customer_id, currency, balance_minor)
      values (${ref.serviceId}, ${ref.customerId}, ${ref.currency}, ${opening})
      on conflict (service_id, customer_id, currency) do update set updated_at = wallet_accounts.updated_at
      returning id, balance_minor, held_minor, (xmax = 0) as inserted
    ), opening as (
      insert into ${walletEntries} (account_id, kind, balance_delta_minor)
      select id, 'opening', balance_minor from account where inserted
    )
    select id, balance_minor, held_minor from account`);
  const [account] = sqlRows<{ id: string; balance_minor: string | number; held_minor: string | number }>(result);
  if (!account) throw new Error("wallet account could not be opened");
  return { id: account.id, balanceMinor: Number(account.balance_minor), heldMinor: Number(account.held_minor) };
}

/**
 * Moves the balance and the held amount of a locked account and writes the ledger entry in
 * one statement: the entry exists exactly when the account changed. Refuses (null) a move
 * that would leave less than nothing available.
 */
async function postEntry(
  tx: Db,
  entry: { accountId: string; paymentId: string; kind: EntryKind; balanceDelta?: number; heldDelta?: number },
): Promise<string | null> {
  const balanceDelta = entry.balanceDelta ?? 0;
  const heldDelta = entry.heldDelta ?? 0;
  const result = await tx.execute(sql`
    with moved as (
      update ${walletAccounts}
      set balance_minor = balance_minor + ${balanceDelta}, held_minor = held_minor + ${heldDelta}, updated_at = now()
      where id = ${entry.accountId} and balance_minor + ${balanceDelta} >= held_minor + ${heldDelta}
      returning id
    )
    insert into ${walletEntries} (account_id, payment_id, kind, balance_delta_minor, held_delta_minor)
    select id, ${entry.paymentId}, ${entry.kind}, ${balanceDelta}, ${heldDelta} from moved
    returning id`);
  return sqlRows<{ id: string }>(result)[0]?.id ?? null;
}

/** A movement that cannot leave less than nothing available (capture, release, refund). */
async function postRequiredEntry(tx: Db, entry: Parameters<typeof postEntry>[1]): Promise<string> {
  const entryId = await postEntry(tx, entry);
  if (!entryId) throw new Error(`wallet ${entry.kind} on account ${entry.accountId} was refused`);
  return entryId;
}

function hashCode(salt: string, code: string): string {
  return hashSecret(`${salt}:${code}`);
}

function freshCode(now: Date) {
  const codeSalt = randomToken(16);
  return {
    codeSalt,
    codeHash: hashCode(codeSalt, SANDBOX_OTP_CODE),
    expiresAt: new Date(now.getTime() + OTP_LIFETIME_MS),
    resendAvailableAt: new Date(now.getTime() + OTP_RESEND_COOLDOWN_MS),
  };
}

const challengeView = (row: { attemptsLeft: number; expiresAt: Date; resendAvailableAt: Date }): OtpChallenge => ({
  attemptsLeft: row.attemptsLeft,
  expiresAt: row.expiresAt,
  resendAvailableAt: row.resendAvailableAt,
});

async function move(tx: Db, request: WalletMovement, kind: "debit" | "hold"): Promise<WalletOutcome> {
  const account = await lockAccount(tx, request.account);
  if (account.balanceMinor - account.heldMinor < request.amountMinor)
    return { ok: false, reason: "insufficient_funds" };
  const entryId = await postEntry(tx, {
    accountId: account.id,
    paymentId: request.paymentId,
    kind,
    ...(kind === "debit" ? { balanceDelta: -request.amountMinor } : { heldDelta: request.amountMinor }),
  });
  if (!entryId) return { ok: false, reason: "insufficient_funds" };
  if (kind === "debit") return { ok: true, reference: entryId };
  const [hold] = await tx
    .insert(walletHolds)
    .values({ accountId: account.id, paymentId: request.paymentId, amountMinor: request.amountMinor })
    .returning({ id: walletHolds.id });
  return { ok: true, reference: hold!.id };
}

async function activeHold(tx: Db, paymentId: string) {
  const [hold] = await tx
    .select()
    .from(walletHolds)
    .where(and(eq(walletHolds.paymentId, paymentId), eq(walletHolds.status, "active")))
    .for("update");
  if (!hold) throw new Error(`no active wallet hold for payment ${paymentId}`);
  return hold;
}

/** A real simulation on the wallet tables (wallet-tables.ts). */
export const sandboxWallet: WalletProvider = {
  async balance(db, ref): Promise<WalletBalance> {
    const [account] = await balanceQuery(db).execute({
      serviceId: ref.serviceId,
      customerId: ref.customerId,
      currency: ref.currency,
    });
    const balanceMinor = account?.balanceMinor ?? openingBalanceMinor(ref.currency);
    const heldMinor = account?.heldMinor ?? 0;
    return { balanceMinor, heldMinor, availableMinor: balanceMinor - heldMinor };
  },

  debit: (tx, request) => move(tx, request, "debit"),
  hold: (tx, request) => move(tx, request, "hold"),

  async captureHold(tx, { paymentId, amountMinor }) {
    const hold = await activeHold(tx, paymentId);
    if (amountMinor <= 0 || amountMinor > hold.amountMinor) {
      throw new Error(`capture of ${amountMinor} outside the hold of ${hold.amountMinor}`);
    }
    const releasedMinor = hold.amountMinor - amountMinor;
    await postRequiredEntry(tx, {
      accountId: hold.accountId,
      paymentId,
      kind: "hold_capture",
      balanceDelta: -amountMinor,
      heldDelta: -amountMinor,
    });
    if (releasedMinor > 0) {
      await postRequiredEntry(tx, {
        accountId: hold.accountId,
        paymentId,
        kind: "hold_release",
        heldDelta: -releasedMinor,
      });
    }
    await tx
      .update(walletHolds)
      .set({ status: "captured", capturedMinor: amountMinor, closedAt: sql`now()` })
      .where(eq(walletHolds.id, hold.id));
    return { capturedMinor: amountMinor, releasedMinor };
  },

  async releaseHold(tx, { paymentId }) {
    const hold = await activeHold(tx, paymentId);
    await postRequiredEntry(tx, {
      accountId: hold.accountId,
      paymentId,
      kind: "hold_release",
      heldDelta: -hold.amountMinor,
    });
    await tx
      .update(walletHolds)
      .set({ status: "released", closedAt: sql`now()` })
      .where(eq(walletHolds.id, hold.id));
    return { releasedMinor: hold.amountMinor };
  },

  async credit(tx, request) {
    const account = await lockAccount(tx, request.account);
    const entryId = await postRequiredEntry(tx, {
      accountId: account.id,
      paymentId: request.paymentId,
      kind: "refund",
      balanceDelta: request.amountMinor,
    });
    return { reference: entryId };
  },

  async startOtp(db, { paymentId, now }) {
    // The sandbox sends nothing: the code is always SANDBOX_OTP_CODE, kept only as a hash.
    // One statement, so no transaction: the insert opens the challenge or leaves the open one.
    const [row] = await startOtpQuery(db).execute({ paymentId, ...freshCode(now), updatedAt: now });
    if (row) return { challenge: challengeView(row), created: true };
    const open = await sandboxWallet.otpChallenge(db, { paymentId });
    if (!open) throw new Error(`the OTP challenge of payment ${paymentId} could be neither opened nor read`);
    return { challenge: open, created: false };
  },

  async resendOtp(tx, { paymentId, now }) {
    const [row] = await tx.select().from(otpChallenges).where(eq(otpChallenges.paymentId, paymentId)).for("update");
    if (!row) throw new Error(`no OTP challenge for payment ${paymentId}`);
    if (now < row.resendAvailableAt) return { ok: false, resendAvailableAt: row.resendAvailableAt };
    const [updated] = await tx
      .update(otpChallenges)
      .set({ ...freshCode(now), sentCount: sql`${otpChallenges.sentCount} + 1`, updatedAt: now })
      .where(eq(otpChallenges.id, row.id))
      .returning();
    return { ok: true, challenge: challengeView(updated!) };
  },

  async verifyOtp(tx, { paymentId, code, now }) {
    const [row] = await tx.select().from(otpChallenges).where(eq(otpChallenges.paymentId, paymentId)).for("update");
    if (!row) return { outcome: "no_challenge" };
    if (row.attemptsLeft <= 0) return { outcome: "wrong_code", attemptsLeft: 0 };
    if (now > row.expiresAt) return { outcome: "code_expired", attemptsLeft: row.attemptsLeft };
    if (constantTimeEqual(hashCode(row.codeSalt, code), row.codeHash)) {
      await tx.update(otpChallenges).set({ verifiedAt: now, updatedAt: now }).where(eq(otpChallenges.id, row.id));
      return { outcome: "verified", attemptsLeft: row.attemptsLeft };
    }
    const [updated] = await tx
      .update(otpChallenges)
      .set({ attemptsLeft: sql`${otpChallenges.attemptsLeft} - 1`, updatedAt: now })
      .where(eq(otpChallenges.id, row.id))
      .returning({ attemptsLeft: otpChallenges.attemptsLeft });
    return { outcome: "wrong_code", attemptsLeft: updated!.attemptsLeft };
  },

  async otpChallenge(db, { paymentId }) {
    const [row] = await otpChallengeQuery(db).execute({ paymentId });
    return row ? challengeView(row) : null;
  },
};
