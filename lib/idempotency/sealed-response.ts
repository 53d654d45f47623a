import { decryptWithKey, encryptWithKey } from "../crypto/gateway-key";
import type { RememberedError } from "./idempotency.schema";

/**
 * A remembered answer can hold page tokens (payUrl, qrPageUrl, ...), which are never stored
 * in the clear: the body is sealed under the gateway key and opened only to replay it.
 */
export interface SealedResponse {
  sealed: string;
}

export interface RememberedBody {
  message: string;
  data: unknown;
  error?: RememberedError;
}

export function sealResponse(gatewayKey: Buffer, body: RememberedBody): SealedResponse {
  return { sealed: encryptWithKey(gatewayKey, JSON.stringify(body)) };
}

export function openResponse(gatewayKey: Buffer, stored: unknown): RememberedBody {
  const { sealed } = stored as SealedResponse;
  return JSON.parse(decryptWithKey(gatewayKey, sealed)) as RememberedBody;
}
