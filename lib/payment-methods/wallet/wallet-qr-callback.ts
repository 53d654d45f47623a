import { logger } from "../../log";
import type { Db } from "../../db/client";
import { isOpen } from "../../provider-operations";
import { walletSecret } from "../../wallet-connection/wallet-connection";
import { isSignedWalletRequest, qrAnsweredEventSchema } from "../../providers/wallet/wallet-protocol";
import { findQrCharge } from "./wallet-qr-charge";
import { settleQrCharge } from "./settle-qr-charge";

/**
 * What the gateway answers the wallet's qrRequestAnswered callback: 204 once the answer is
 * settled or was settled before (a repeat changes nothing, so the notification goes out once),
 * 401 for a signature that is missing, wrong or stale (nothing is read), 400 for a body outside
 * the protocol, 404 for a request the gateway did not open, 503 when it could not settle now
 * (the wallet retries; reconciliation asks it meanwhile).
 */
export type QrCallbackStatus = 204 | 400 | 401 | 404 | 503;

export async function receiveQrCallback(
  db: Db,
  request: { method: string; pathAndQuery: string; body: string; headers: Headers },
): Promise<QrCallbackStatus> {
  if (!isSignedWalletRequest(await walletSecret(), request)) return 401;
  let parsed;
  try {
    parsed = qrAnsweredEventSchema.safeParse(JSON.parse(request.body));
  } catch {
    return 400;
  }
  if (!parsed.success) return 400;
  const qr = parsed.data.data;
  const operation = await findQrCharge(db, qr.paymentId);
  if (!operation || operation.id !== qr.operationId || operation.request.qrRequestId !== qr.qrRequestId) return 404;
  if (!isOpen(operation)) return 204;
  try {
    await settleQrCharge(db, qr.paymentId, qr);
    return 204;
  } catch (error) {
    logger.warn({ err: error, paymentId: qr.paymentId }, "wallet QR callback not settled; left for reconciliation");
    return 503;
  }
}

/**
 * The callback as an HTTP exchange: the route, and the sandbox wallet in this process (wired by
 * mount-simulators.ts).
 */
export async function handleQrCallback(db: Db, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const status = await receiveQrCallback(db, {
    method: request.method,
    pathAndQuery: url.pathname + url.search,
    body: await request.text(),
    headers: request.headers,
  });
  if (status === 204) return new Response(null, { status });
  const [name, message] = CALLBACK_ERRORS[status];
  return Response.json({ error: { name, message } }, { status, headers: { "cache-control": "no-store" } });
}

// In the protocol's error shape, so the wallet reads the gateway's refusals as it reads its own.
const CALLBACK_ERRORS: Record<Exclude<QrCallbackStatus, 204>, [string, string]> = {
  400: ["invalid_request", "The body is not a qr_request.answered event."],
  401: ["invalid_signature", "The request's signature is missing, wrong or stale."],
  404: ["unknown_qr_request", "The gateway opened no such QR request."],
  503: ["internal_error", "The answer could not be recorded now; send it again."],
};
