import { getConfig } from "../../config";
import { isInsideTransaction, ProviderCallInTransactionError } from "../../db/transaction-guard";
import { ProviderUnavailableError } from "../../provider-operations";
import { redirectSimulatorMount } from "../../providers/simulator-mount";

/*
 * Chargily Pay's v2 API on the wire, as its official SDK (@chargily/chargily-pay 2.1.0,
 * lib/classes/client.js) sends it: JSON to `<base>/<endpoint>` with `Authorization: Bearer
 * <secret key>`, the base chosen by the mode (its CHARGILY_TEST_URL and CHARGILY_LIVE_URL below).
 * Not the SDK itself: its client takes no base URL (so neither the simulator nor a rehearsal
 * could be reached), calls the global fetch (no in-process sandbox), and folds every HTTP status
 * into one Error's text, where the gateway must tell wrong credentials (401), a refused request
 * (422) and an outage (5xx) apart.
 */

export const CHARGILY_TEST_URL = "https://pay.chargily.net/test/api/v2";
export const CHARGILY_LIVE_URL = "https://pay.chargily.net/api/v2";

export type ChargilyMode = "test" | "live";

/**
 * A JSON answer and its HTTP status; a 4xx is Chargily's refusal (401 wrong key, 404 unknown, 422 invalid),
 * read by the caller.
 */
export interface ChargilyAnswer {
  status: number;
  body: Record<string, unknown>;
}

export function chargilyBaseUrl(mode: ChargilyMode): string {
  const config = getConfig();
  if (config.CHARGILY_API_URL) return config.CHARGILY_API_URL.replace(/\/+$/, "");
  if (config.isSandbox) return `${config.publicBaseUrl}${redirectSimulatorMount("chargily").path}/api/v2`;
  return mode === "live" ? CHARGILY_LIVE_URL : CHARGILY_TEST_URL;
}

/** One call; no answer, a 5xx or a body that is not JSON leaves the outcome unknown (ProviderUnavailableError). */
export async function callChargily(options: {
  secretKey: string;
  mode: ChargilyMode;
  method: "GET" | "POST";
  endpoint: string;
  body?: unknown;
}): Promise<ChargilyAnswer> {
  const { method, endpoint } = options;
  if (isInsideTransaction()) throw new ProviderCallInTransactionError(`chargily.${method} ${endpoint}`);
  const config = getConfig();
  const send: typeof fetch =
    !config.CHARGILY_API_URL && config.isSandbox ? redirectSimulatorMount("chargily").fetch : fetch;
  let response: Response;
  try {
    response = await send(`${chargilyBaseUrl(options.mode)}/${endpoint}`, {
      method,
      headers: {
        authorization: `Bearer ${options.secretKey}`,
        "content-type": "application/json",
        accept: "application/json",
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
  } catch (error) {
    throw new ProviderUnavailableError(`Chargily ${method} /${endpoint} could not be reached`, { cause: error });
  }
  if (response.status >= 500 || response.status === 429)
    throw new ProviderUnavailableError(`Chargily ${method} /${endpoint} answered HTTP ${response.status}`);
  try {
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  } catch (error) {
    throw new ProviderUnavailableError(`Chargily ${method} /${endpoint} answered something other than JSON`, {
      cause: error,
    });
  }
}
