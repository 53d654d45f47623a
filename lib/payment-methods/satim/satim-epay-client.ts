import { getConfig } from "../../config";
import { isInsideTransaction, ProviderCallInTransactionError } from "../../db/transaction-guard";
import { ProviderUnavailableError } from "../../provider-operations";
import { redirectSimulatorMount } from "../../providers/simulator-mount";

/*
 * SATIM ePay's REST interface on the wire (the BPC/RBS "payment/rest" API SATIM runs): every
 * call is a form-encoded POST of userName, password and the call's own parameters to
 * `<base>/<call>.do`, answered with JSON. Followed: SATIM's merchant integration guide as
 * summarized by open-source clients (achetibi/laravel-satim, kyoucef27/satim-payment-module's
 * docs/SATIM_API.md) and the public guides listed in docs/going-live.md. Production sends to
 * SATIM_API_URL; a sandbox without it reaches the SATIM simulator in its own process.
 */

export type SatimCall = "register" | "confirmOrder" | "refund" | "getOrderStatusExtended";

export type SatimAnswer = Record<string, unknown>;

/** The REST base the adapter sends to. */
export function satimBaseUrl(): string {
  const config = getConfig();
  if (config.SATIM_API_URL) return config.SATIM_API_URL.replace(/\/+$/, "");
  if (config.isSandbox) return `${config.publicBaseUrl}${redirectSimulatorMount("satim").path}/payment/rest`;
  throw new ProviderUnavailableError("SATIM_API_URL is not set");
}

/** One call; an answer that is not JSON, or an HTTP error, leaves the outcome unknown (ProviderUnavailableError). */
export async function callSatim(call: SatimCall, params: Record<string, string>): Promise<SatimAnswer> {
  if (isInsideTransaction()) throw new ProviderCallInTransactionError(`satim.${call}`);
  const config = getConfig();
  const send: typeof fetch = !config.SATIM_API_URL && config.isSandbox ? redirectSimulatorMount("satim").fetch : fetch;
  let response: Response;
  try {
    response = await send(`${satimBaseUrl()}/${call}.do`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(params).toString(),
    });
  } catch (error) {
    throw new ProviderUnavailableError(`SATIM ${call}.do could not be reached`, { cause: error });
  }
  if (!response.ok) throw new ProviderUnavailableError(`SATIM ${call}.do answered HTTP ${response.status}`);
  try {
    return (await response.json()) as SatimAnswer;
  } catch (error) {
    throw new ProviderUnavailableError(`SATIM ${call}.do answered something other than JSON`, { cause: error });
  }
}
