import { isValidPageToken } from "../../auth/client-secret";
import { getGatewayKey } from "../../crypto/gateway-key";
import type { Db } from "../../db/client";
import { invalidCredentials } from "../../http/api-error";
import { HOSTED_PAGE } from "../pay-url";
import { isPaymentId } from "../payment-record";

/** A hosted page acts on a payment only with that payment's page token. */
export async function assertHostedToken(db: Db, paymentId: string, token: string): Promise<void> {
  if (!isPaymentId(paymentId) || typeof token !== "string") throw invalidCredentials();
  if (!isValidPageToken(await getGatewayKey(db), HOSTED_PAGE, paymentId, token)) throw invalidCredentials();
}
