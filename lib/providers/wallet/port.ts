import type { Db } from "../../db/client";

/**
 * The sandbox wallet's books (sandbox-wallet.ts), used by the sandbox wallet service
 * (simulators/wallet) inside its own transactions. The gateway never calls it: it reaches any
 * wallet, the sandbox included, through the wallet-service client (wallet-connection.ts).
 */
export interface WalletProvider {
  /** Funds of the owner in `currency`: total, held by reservations, and available (total - held). */
  balance(db: Db, account: WalletAccountRef): Promise<WalletBalance>;
  /** Takes `amountMinor` at once (DIRECT payment). */
  debit(tx: Db, request: WalletMovement): Promise<WalletOutcome>;
  /** Reserves `amountMinor` for a RESERVATION payment until capture or release. */
  hold(tx: Db, request: WalletMovement): Promise<WalletOutcome>;
  /** Takes `amountMinor` of the payment's hold and returns the rest of it to the owner. */
  captureHold(
    tx: Db,
    request: { paymentId: string; amountMinor: number },
  ): Promise<{ capturedMinor: number; releasedMinor: number }>;
  /** Returns the whole hold of the payment to the owner. */
  releaseHold(tx: Db, request: { paymentId: string }): Promise<{ releasedMinor: number }>;
  /** Pays `amountMinor` back to the owner (refund). */
  credit(tx: Db, request: WalletMovement): Promise<{ reference: string }>;

  /**
   * Sends the account's owner a one-time code for the payment, or answers the payment's open
   * challenge (`created: false`, no new code) when one was sent already.
   */
  startOtp(
    db: Db,
    request: { paymentId: string; account: WalletAccountRef; now: Date },
  ): Promise<{ challenge: OtpChallenge; created: boolean }>;
  /** Sends a new code once the cooldown has passed; the wrong-attempt count carries over. */
  resendOtp(tx: Db, request: { paymentId: string; now: Date }): Promise<OtpResend>;
  /** Checks a code; a wrong one costs an attempt. */
  verifyOtp(tx: Db, request: { paymentId: string; code: string; now: Date }): Promise<OtpVerification>;
  /** The payment's current challenge, for the hosted page. */
  otpChallenge(db: Db, request: { paymentId: string }): Promise<OtpChallenge | null>;
}

export interface WalletAccountRef {
  serviceId: string;
  customerId: string;
  currency: string;
}

export interface WalletMovement {
  account: WalletAccountRef;
  paymentId: string;
  amountMinor: number;
}

export interface WalletBalance {
  balanceMinor: number;
  heldMinor: number;
  availableMinor: number;
}

export type WalletOutcome = { ok: true; reference: string } | { ok: false; reason: "insufficient_funds" };

export interface OtpChallenge {
  attemptsLeft: number;
  expiresAt: Date;
  resendAvailableAt: Date;
}

/**
 * A QR request as the gateway shows it (the wallet app page, the sandbox answer): QR requests
 * live at the wallet service only (wallet-protocol.ts), never behind this port.
 * canceled: the gateway withdrew the request before an answer (the payment expired).
 */
export type QrRequestStatus = "pending" | "approved" | "declined" | "rejected" | "canceled";

export interface QrRequest {
  /** The wallet's order id (check: paymentOrderId). */
  orderId: string;
  /** The wallet's transaction id (check: microServiceTransactionId). */
  transactionId: string;
  status: QrRequestStatus;
  /** Given with an approval only. */
  approvalCode: string | null;
}

export type OtpResend = { ok: true; challenge: OtpChallenge } | { ok: false; resendAvailableAt: Date };

export type OtpVerification =
  | { outcome: "verified"; attemptsLeft: number }
  /** attemptsLeft 0: no attempt remains, the payment fails. */
  | { outcome: "wrong_code"; attemptsLeft: number }
  /** The code outlived its lifetime; a resend gives a new one. */
  | { outcome: "code_expired"; attemptsLeft: number }
  | { outcome: "no_challenge" };

/** Sandbox rules of contract section 9. */
export const OTP_ATTEMPTS = 5;
export const OTP_LIFETIME_MS = 5 * 60 * 1000;
export const OTP_RESEND_COOLDOWN_MS = 30 * 1000;
