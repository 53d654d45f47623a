import { redirectSimulator } from "../redirect-simulator";
import { CMI_SANDBOX_STORE, callbackSender, handleCmiRequest } from "./cmi-simulator";

/**
 * The CMI simulator as simulators/simulator-list.ts lists it: the 3D Pay Hosting gate and page under /fim,
 * its API at /fim/api, its callbacks to the gateway.
 */
export const cmiSimulator = redirectSimulator({
  title: "CMI",
  handle: (db, request, { base, toGateway }) => handleCmiRequest(db, request, base, callbackSender(toGateway)),
  failure: { contentType: "text/plain", body: "System error" },
  gatewaySettings: (url) => ({ CMI_URL: url }),
  // CMI's API is one address (/fim/api) for its status query, PostAuth, Void and Credit.
  moneyCalls: [{ name: "api", method: "POST", path: /\/fim\/api/ }],
  process: {
    prefix: "CMI",
    prints: "the CMI_URL and the store it accepts (client id, store key, API user and password)",
    printed: (origin) => ({ cmiUrl: origin, ...CMI_SANDBOX_STORE }),
    describe: (printed) => [
      `  CMI_URL=${printed.cmiUrl}`,
      `  client id ${printed.clientId}, API user ${printed.apiUser}; ` +
        `CMI_STORE_KEY='${printed.storeKey}', CMI_API_PASSWORD=${printed.apiPassword}`,
    ],
  },
});
