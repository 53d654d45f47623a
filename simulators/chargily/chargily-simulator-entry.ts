import { redirectSimulator } from "../redirect-simulator";
import { CHARGILY_SANDBOX_SECRET_KEY, handleChargilyRequest } from "./chargily-simulator";

/**
 * The Chargily Pay simulator as simulators/simulator-list.ts lists it: its v2 API under /api/v2, its hosted
 * checkout, its signed webhooks to the gateway.
 */
export const chargilySimulator = redirectSimulator({
  title: "Chargily",
  handle: (db, request, { base, toGateway }) => handleChargilyRequest(db, request, { base, sendWebhook: toGateway }),
  failure: { contentType: "application/json", body: '{"message":"Server Error"}' },
  gatewaySettings: (url) => ({ CHARGILY_API_URL: `${url}/api/v2` }),
  moneyCalls: [
    { name: "create checkout", method: "POST", path: /\/api\/v2\/checkouts/ },
    { name: "read checkout", method: "GET", path: /\/api\/v2\/checkouts\/[^/]+/ },
  ],
  process: {
    prefix: "CHARGILY",
    prints: "the CHARGILY_API_URL and the test secret key it accepts",
    printed: (origin) => ({ apiUrl: `${origin}/api/v2`, mode: "test", secretKey: CHARGILY_SANDBOX_SECRET_KEY }),
    describe: (printed) => [
      `  CHARGILY_API_URL=${printed.apiUrl}`,
      `  mode test, secret key ${printed.secretKey} (CHARGILY_SECRET_KEY)`,
    ],
  },
});
