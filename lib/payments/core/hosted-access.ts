import { isValidPageToken } from "../../auth/client-secret";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { invalidCredentials } from "../../errors/api-error";
import { HOSTED_PAGE } from "./hosted-page-token";
import { isPaymentId } from "../../db/payment-record";

/**
 * The one hosted-page token check: a hosted page acts on or shows a payment only with that
 * payment's page token (an HMAC of its id, never stored).
 */
export async function hasHostedToken(db: Db, paymentId: string, token: unknown): Promise<boolean> {
  if (!isPaymentId(paymentId) || typeof token !== "string") return false;
  return isValidPageToken(await getGatewayKey(db), HOSTED_PAGE, paymentId, token);
}

/** `hasHostedToken` for callers that answer a wrong token as invalid_credentials. */
export async function assertHostedToken(db: Db, paymentId: string, token: string): Promise<void> {
  if (!(await hasHostedToken(db, paymentId, token))) throw invalidCredentials();
}
