import { redirectSimulator } from "../redirect-simulator";
import { handleSatimRequest, SATIM_SANDBOX_MERCHANT } from "./satim-simulator";

/**
 * The SATIM ePay simulator as simulators/simulator-list.ts lists it: its REST calls under /payment/rest, its
 * payment page beside them.
 */
export const satimSimulator = redirectSimulator({
  title: "SATIM",
  handle: (db, request, { base }) => handleSatimRequest(db, request, base),
  failure: { contentType: "application/json", body: '{"errorCode":"7","errorMessage":"System error"}' },
  gatewaySettings: (url) => ({ SATIM_API_URL: `${url}/payment/rest` }),
  moneyCalls: [
    { name: "register", method: "POST", path: /\/payment\/rest\/register\.do/ },
    {
      name: "confirm",
      method: "POST",
      path: /\/payment\/rest\/(confirmOrder|public\/acknowledgeTransaction|getOrderStatusExtended)\.do/,
    },
    { name: "refund", method: "POST", path: /\/payment\/rest\/refund\.do/ },
  ],
  process: {
    prefix: "SATIM",
    prints: "the SATIM_API_URL and the merchant credentials it accepts",
    printed: (origin) => ({
      apiUrl: `${origin}/payment/rest`,
      terminalId: SATIM_SANDBOX_MERCHANT.terminalId,
      userName: SATIM_SANDBOX_MERCHANT.userName,
      password: SATIM_SANDBOX_MERCHANT.password,
    }),
    describe: (printed) => [
      `  SATIM_API_URL=${printed.apiUrl}`,
      `  terminal id ${printed.terminalId}, user ${printed.userName}, password ${printed.password} (SATIM_PASSWORD)`,
    ],
  },
});
