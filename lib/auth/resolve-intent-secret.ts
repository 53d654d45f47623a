import type { Db } from "../db/client";
import { getGatewayKey } from "../crypto/gateway-key";
import { invalidCredentials } from "../errors/api-error";
import { rateLimitKeys, rateLimitPolicies } from "../rate-limit/policies";
import type { RequestRateLimit } from "../rate-limit/request-rate-limit";
import { paymentIdFromClientSecret } from "./client-secret";
import type { Credential } from "./detect-credential";
import type { IntentSecretPrincipal } from "./principal";

/**
 * The bare client secret (card finalize): it must name the path's payment. The same per-secret
 * quota as merchant_auth, so switching credential kinds buys no extra requests; there is no
 * lookup to fold it into, so it is one statement of its own.
 */
export async function resolveIntentSecret(
  db: Db,
  credential: Extract<Credential, { mode: "intent_secret" }>,
  pathPaymentId: string | undefined,
  rateLimit: RequestRateLimit,
): Promise<IntentSecretPrincipal> {
  const paymentId = paymentIdFromClientSecret(await getGatewayKey(db), credential.clientSecret);
  if (!paymentId || (pathPaymentId !== undefined && paymentId !== pathPaymentId)) throw invalidCredentials();
  await rateLimit.enforce(db, [{ policy: rateLimitPolicies.clientSecret, key: rateLimitKeys.clientSecret(paymentId) }]);
  return { mode: "intent_secret", paymentId, clientSecret: credential.clientSecret };
}
