import { z } from "zod";
import ar from "./messages.ar.json";
import en from "./messages.en.json";
import fr from "./messages.fr.json";
import { httpUrlSetting, simulatorProcessSettings } from "../../../validation/setting-schemas";

/** What the gateway knows of CMI without loading it (lib/payment-methods/declarations). */
export const cmiDeclaration = {
  code: "CMI",
  provider: "cmi",
  catalog: {
    name: "cmi",
    displayNames: { en: "CMI (bank card)", fr: "CMI (carte bancaire)", ar: "CMI (البطاقة البنكية)" },
    imagePath: "/payment-methods/cmi.svg",
    archetype: "REDIRECT",
    position: 50,
    countries: ["MAR"],
    sandboxOnly: true,
  },
  settings: {
    // CMI's base (https://testpayment.cmi.co.ma for its test platform, https://payment.cmi.co.ma in
    // production): the gate at /fim/est3Dgate, the API at /fim/api. Unset in the sandbox: the in-gateway simulator.
    CMI_URL: httpUrlSetting().optional(),
    // Read by `npm run merchant -- update --cmi-client-id ... --cmi-api-user ...` only: CMI's store key and
    // API password stay off the command line.
    CMI_STORE_KEY: z.string().min(1).max(128).optional(),
    CMI_API_PASSWORD: z.string().min(1).max(128).optional(),
    ...simulatorProcessSettings("CMI", { port: 4300, pgliteDir: ".data/cmi-simulator" }),
  },
  // Where the page's form posts: CMI's gate under CMI_URL.
  pageOrigins: (config: { CMI_URL?: string | undefined }) => (config.CMI_URL ? [new URL(config.CMI_URL).origin] : []),
  messages: { en, fr, ar },
} as const;
