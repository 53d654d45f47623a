import { createHmac, timingSafeEqual } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { z } from "zod";
import { randomToken } from "../../crypto/secrets";

/**
 * The wallet-service protocol (docs/wallet-protocol.openapi.yaml) as both sides of it read
 * it: the request and response shapes, the error names and the signature. The HTTP adapter
 * (http-wallet-client.ts) and the sandbox wallet (simulators/wallet) share this file, so the
 * gateway cannot speak a dialect its own reference implementation does not.
 */

export const WALLET_ERROR_NAMES = [
  "invalid_request",
  "invalid_signature",
  "unknown_account",
  "insufficient_funds",
  "idempotency_conflict",
  "unknown_operation",
  "unknown_hold",
  "hold_closed",
  "amount_exceeds_hold",
  "unknown_challenge",
  "code_wrong",
  "code_expired",
  "code_exhausted",
  "resend_too_soon",
  "unknown_qr_request",
  "qr_request_answered",
  "internal_error",
] as const;
export type WalletErrorName = (typeof WALLET_ERROR_NAMES)[number];

/** HTTP status of each error name, as the document lists them. */
export const WALLET_ERROR_STATUS: Record<WalletErrorName, number> = {
  invalid_request: 400,
  invalid_signature: 401,
  unknown_account: 404,
  insufficient_funds: 422,
  idempotency_conflict: 409,
  unknown_operation: 404,
  unknown_hold: 404,
  hold_closed: 409,
  amount_exceeds_hold: 409,
  unknown_challenge: 404,
  code_wrong: 422,
  code_expired: 422,
  code_exhausted: 422,
  resend_too_soon: 409,
  unknown_qr_request: 404,
  qr_request_answered: 409,
  internal_error: 500,
};

const id = z.string().min(1).max(100);
export const operationIdSchema = z
  .string()
  .min(8)
  .max(200)
  .regex(/^[A-Za-z0-9_.:-]+$/);
const currency = z.string().regex(/^[A-Z]{3}$/);
const minor = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const positiveMinor = minor.min(1);
const dateTime = z.iso.datetime({ offset: true });

export const accountSchema = z.strictObject({
  merchantId: id,
  customerId: id,
  phone: z
    .string()
    .regex(/^\+[0-9]{8,15}$/)
    .optional(),
});
export type WalletAccount = z.infer<typeof accountSchema>;

export const balanceQuerySchema = z.object({
  merchantId: id,
  customerId: id,
  phone: z
    .string()
    .regex(/^\+[0-9]{8,15}$/)
    .optional(),
  currency,
});
export const balanceSchema = z.object({ currency, balanceMinor: minor, heldMinor: minor, availableMinor: minor });
export type WalletBalanceBody = z.infer<typeof balanceSchema>;

export const movementRequestSchema = z.strictObject({
  operationId: operationIdSchema,
  paymentId: id,
  account: accountSchema,
  currency,
  amountMinor: positiveMinor,
});
export type MovementRequest = z.infer<typeof movementRequestSchema>;
export const captureRequestSchema = z.strictObject({ operationId: operationIdSchema, amountMinor: positiveMinor });
export const releaseRequestSchema = z.strictObject({ operationId: operationIdSchema });

export const OPERATION_KINDS = ["debit", "hold", "capture", "release", "credit"] as const;
export type OperationKind = (typeof OPERATION_KINDS)[number];

export const operationSchema = z.object({
  operationId: operationIdSchema,
  kind: z.enum(OPERATION_KINDS),
  status: z.enum(["succeeded", "refused"]),
  error: z.enum(WALLET_ERROR_NAMES).optional(),
  paymentId: id,
  amountMinor: minor,
  capturedMinor: minor.optional(),
  releasedMinor: minor.optional(),
  reference: z.string().nullable(),
  createdAt: dateTime,
});
export type WalletOperation = z.infer<typeof operationSchema>;

export const otpStartRequestSchema = z.strictObject({
  paymentId: id,
  account: accountSchema,
  currency,
  amountMinor: positiveMinor,
  merchantName: z.string().max(200).optional(),
});
export const otpChallengeSchema = z.object({
  paymentId: id,
  attemptsLeft: z.number().int().min(0),
  expiresAt: dateTime,
  resendAvailableAt: dateTime,
});
export type OtpChallengeBody = z.infer<typeof otpChallengeSchema>;
export const otpVerifyRequestSchema = z.strictObject({ code: z.string().max(32) });
export const otpVerifiedSchema = z.object({ outcome: z.literal("verified"), attemptsLeft: z.number().int().min(0) });

export const QR_STATUSES = ["pending", "approved", "declined", "rejected", "canceled"] as const;
export const qrCreateRequestSchema = z.strictObject({
  operationId: operationIdSchema,
  paymentId: id,
  account: accountSchema,
  currency,
  amountMinor: positiveMinor,
  captureMethod: z.enum(["DIRECT", "RESERVATION"]),
  callbackUrl: z.url({ protocol: /^https?$/ }),
  merchantName: z.string().max(200).optional(),
});
export type QrCreateRequest = z.infer<typeof qrCreateRequestSchema>;
export const qrRequestSchema = z.object({
  qrRequestId: z.string(),
  orderId: z.string(),
  paymentId: id,
  operationId: operationIdSchema,
  status: z.enum(QR_STATUSES),
  approvalCode: z.string().nullable(),
  reference: z.string().nullable(),
  qrContent: z.string(),
});
export type QrRequestBody = z.infer<typeof qrRequestSchema>;
export const qrAnsweredEventSchema = z.object({ type: z.literal("qr_request.answered"), data: qrRequestSchema });

export const errorBodySchema = z.object({
  error: z.object({
    name: z.enum(WALLET_ERROR_NAMES),
    message: z.string(),
    attemptsLeft: z.number().int().min(0).optional(),
    resendAvailableAt: dateTime.optional(),
    qrRequest: qrRequestSchema.optional(),
  }),
});
export type WalletErrorBody = z.infer<typeof errorBodySchema>["error"];

/** Sandbox only: the gateway's service clock (the sandbox clock may run ahead); a real wallet ignores it. */
export const SANDBOX_NOW_HEADER = "wallet-sandbox-now";

/** What is signed: method, path with query, and body, so a signature cannot move to another call. */
export function signedPayload(method: string, pathAndQuery: string, body: string): string {
  return `${method.toUpperCase()} ${pathAndQuery}\n${body}`;
}

/*
 * Standard Webhooks signatures (v1: HMAC-SHA256 over "id.timestamp.payload", base64), the
 * bytes the standardwebhooks library writes and checks, computed with node:crypto: the
 * library hashes in JavaScript and decodes the secret on every call, about 20 µs a
 * signature against 4, and every wallet call is signed once and checked once.
 * tests/unit/wallet-signature.test.ts holds the two to the same bytes both ways.
 */
const TOLERANCE_SECONDS = 5 * 60;
const signingKeys = new Map<string, Buffer>();

function signingKey(secret: string): Buffer {
  let key = signingKeys.get(secret);
  if (!key) {
    new Webhook(secret); // refuses an empty or malformed secret as the library does
    key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
    signingKeys.set(secret, key);
  }
  return key;
}

const signatureOf = (key: Buffer, messageId: string, seconds: number, payload: string) =>
  createHmac("sha256", key).update(`${messageId}.${seconds}.${payload}`).digest("base64");

/** One signed protocol request, as it goes on the wire. */
export interface WalletRequest {
  method: "GET" | "POST";
  url: string;
  headers: Record<string, string>;
  /** The JSON text; "" for a request without a body. */
  body: string;
  /** Aborts when the call's time limit ends. */
  signal: AbortSignal;
}

/** The wallet's answer as it came off the wire: its status and its body's text. */
export interface WalletResponse {
  status: number;
  body: string;
}

/** How a signed request reaches the wallet and its answer comes back. */
export type WalletTransport = (request: WalletRequest) => Promise<WalletResponse>;

/** Standard Webhooks headers for one request (a fresh `webhook-id` each time). */
export function signWalletRequest(
  secret: string,
  request: { method: string; pathAndQuery: string; body: string; now?: Date },
): Record<string, string> {
  const messageId = `msg_${randomToken(18)}`;
  const seconds = Math.floor((request.now ?? new Date()).getTime() / 1000);
  const signature = signatureOf(
    signingKey(secret),
    messageId,
    seconds,
    signedPayload(request.method, request.pathAndQuery, request.body),
  );
  return { "webhook-id": messageId, "webhook-timestamp": String(seconds), "webhook-signature": `v1,${signature}` };
}

/**
 * True when the request carries a valid signature under `secret` whose timestamp is within
 * the library's 5 minutes of now. Never throws.
 */
export function isSignedWalletRequest(
  secret: string,
  request: { method: string; pathAndQuery: string; body: string; headers: { get(name: string): string | null } },
): boolean {
  const messageId = request.headers.get("webhook-id");
  const timestamp = request.headers.get("webhook-timestamp");
  const signatures = request.headers.get("webhook-signature");
  if (!messageId || !timestamp || !signatures) return false;
  const seconds = parseInt(timestamp, 10);
  const now = Math.floor(Date.now() / 1000);
  if (Number.isNaN(seconds) || now - seconds > TOLERANCE_SECONDS || seconds > now + TOLERANCE_SECONDS) return false;
  let key: Buffer;
  try {
    key = signingKey(secret);
  } catch {
    return false;
  }
  const expected = Buffer.from(
    signatureOf(key, messageId, seconds, signedPayload(request.method, request.pathAndQuery, request.body)),
  );
  return signatures.split(" ").some((versioned) => {
    const [version, value] = versioned.split(",");
    if (version !== "v1" || value === undefined) return false;
    const given = Buffer.from(value);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
