import { z } from "zod";
import ar from "./messages.ar.json";
import en from "./messages.en.json";
import fr from "./messages.fr.json";
import { httpUrlSetting, simulatorProcessSettings } from "../../../validation/setting-schemas";

/** What the gateway knows of Chargily Pay without loading it (lib/payment-methods/declarations). */
export const chargilyDeclaration = {
  code: "CHARGILY",
  provider: "chargily",
  catalog: {
    name: "chargily",
    displayNames: {
      en: "Chargily Pay (CIB / EDAHABIA)",
      fr: "Chargily Pay (CIB / EDAHABIA)",
      ar: "شارجيلي باي (CIB / الذهبية)",
    },
    imagePath: "/payment-methods/chargily.svg",
    archetype: "REDIRECT",
    position: 35,
    countries: ["DZA"],
    sandboxOnly: true,
  },
  settings: {
    // Chargily Pay's v2 API base: unset is Chargily itself (https://pay.chargily.net/test/api/v2 or
    // https://pay.chargily.net/api/v2, by the merchant's mode) in production; in the sandbox, the in-gateway simulator.
    CHARGILY_API_URL: httpUrlSetting().optional(),
    // Read by `npm run merchant -- update --chargily-mode ...` only, so Chargily's secret key stays off the
    // command line.
    CHARGILY_SECRET_KEY: z.string().min(1).max(120).optional(),
    ...simulatorProcessSettings("CHARGILY", { port: 4400, pgliteDir: ".data/chargily-simulator" }),
  },
  // The checkout is beside CHARGILY_API_URL (its simulator process), and on pay.chargily.net in both of a
  // production merchant's modes.
  pageOrigins: (config: { CHARGILY_API_URL?: string | undefined; isSandbox: boolean }) => [
    ...(config.CHARGILY_API_URL ? [new URL(config.CHARGILY_API_URL).origin] : []),
    ...(config.isSandbox ? [] : ["https://pay.chargily.net"]),
  ],
  messages: { en, fr, ar },
} as const;
