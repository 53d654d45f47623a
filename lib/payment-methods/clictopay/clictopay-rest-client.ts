import { getConfig } from "../../config";
import { isInsideTransaction, ProviderCallInTransactionError } from "../../db/transaction-guard";
import { ProviderUnavailableError } from "../../provider-operations";
import { redirectSimulatorMount } from "../../providers/simulator-mount";

/*
 * ClicToPay's REST interface on the wire (Monétique Tunisie runs the BPC/RBS "payment/rest"
 * API, as SATIM does): every call is a form-encoded POST of userName, password and the call's
 * own parameters to `<base>/<call>.do`, answered with JSON. Followed: ClicToPay's "Manuel
 * d'intégration" (Plateforme de paiement électronique, V2) and the open-source clients listed
 * in docs/going-live.md. Production sends to CLICTOPAY_API_URL (test platform:
 * https://test.clictopay.com/payment/rest); a sandbox without it reaches the ClicToPay simulator.
 */

export type ClictopayCall =
  "register" | "registerPreAuth" | "getOrderStatusExtended" | "deposit" | "reverse" | "refund";

export type ClictopayAnswer = Record<string, unknown>;

export function clictopayBaseUrl(): string {
  const config = getConfig();
  if (config.CLICTOPAY_API_URL) return config.CLICTOPAY_API_URL.replace(/\/+$/, "");
  if (config.isSandbox) return `${config.publicBaseUrl}${redirectSimulatorMount("clictopay").path}/payment/rest`;
  throw new ProviderUnavailableError("CLICTOPAY_API_URL is not set");
}

/** One call; an answer that is not JSON, or an HTTP error, leaves the outcome unknown (ProviderUnavailableError). */
export async function callClictopay(call: ClictopayCall, params: Record<string, string>): Promise<ClictopayAnswer> {
  if (isInsideTransaction()) throw new ProviderCallInTransactionError(`clictopay.${call}`);
  const config = getConfig();
  const send: typeof fetch =
    !config.CLICTOPAY_API_URL && config.isSandbox ? redirectSimulatorMount("clictopay").fetch : fetch;
  let response: Response;
  try {
    response = await send(`${clictopayBaseUrl()}/${call}.do`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(params).toString(),
    });
  } catch (error) {
    throw new ProviderUnavailableError(`ClicToPay ${call}.do could not be reached`, { cause: error });
  }
  if (!response.ok) throw new ProviderUnavailableError(`ClicToPay ${call}.do answered HTTP ${response.status}`);
  try {
    return (await response.json()) as ClictopayAnswer;
  } catch (error) {
    throw new ProviderUnavailableError(`ClicToPay ${call}.do answered something other than JSON`, { cause: error });
  }
}
