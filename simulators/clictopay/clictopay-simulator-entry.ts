import { redirectSimulator } from "../redirect-simulator";
import { CLICTOPAY_SANDBOX_MERCHANT, handleClictopayRequest } from "./clictopay-simulator";

/**
 * The ClicToPay simulator as simulators/simulator-list.ts lists it: its REST calls under /payment/rest, its
 * payment page beside them.
 */
export const clictopaySimulator = redirectSimulator({
  title: "ClicToPay",
  handle: (db, request, { base }) => handleClictopayRequest(db, request, base),
  failure: { contentType: "application/json", body: '{"errorCode":"7","errorMessage":"System error"}' },
  gatewaySettings: (url) => ({ CLICTOPAY_API_URL: `${url}/payment/rest` }),
  moneyCalls: [
    { name: "register", method: "POST", path: /\/payment\/rest\/register(PreAuth)?\.do/ },
    { name: "status", method: "POST", path: /\/payment\/rest\/getOrderStatusExtended\.do/ },
    { name: "deposit", method: "POST", path: /\/payment\/rest\/deposit\.do/ },
    { name: "reverse", method: "POST", path: /\/payment\/rest\/reverse\.do/ },
    { name: "refund", method: "POST", path: /\/payment\/rest\/refund\.do/ },
  ],
  process: {
    prefix: "CLICTOPAY",
    prints: "the CLICTOPAY_API_URL and the API user and password it accepts",
    printed: (origin) => ({
      apiUrl: `${origin}/payment/rest`,
      userName: CLICTOPAY_SANDBOX_MERCHANT.userName,
      password: CLICTOPAY_SANDBOX_MERCHANT.password,
    }),
    describe: (printed) => [
      `  CLICTOPAY_API_URL=${printed.apiUrl}`,
      `  API user ${printed.userName}, password ${printed.password} (CLICTOPAY_PASSWORD)`,
    ],
  },
});
