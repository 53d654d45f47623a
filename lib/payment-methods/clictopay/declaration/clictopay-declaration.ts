import { z } from "zod";
import ar from "./messages.ar.json";
import en from "./messages.en.json";
import fr from "./messages.fr.json";
import { httpUrlSetting, simulatorProcessSettings } from "../../../validation/setting-schemas";

/** What the gateway knows of ClicToPay without loading it (lib/payment-methods/declarations). */
export const clictopayDeclaration = {
  code: "CLICTOPAY",
  provider: "clictopay",
  catalog: {
    name: "clictopay",
    displayNames: { en: "ClicToPay", fr: "ClicToPay", ar: "كليك تو باي" },
    imagePath: "/payment-methods/clictopay.svg",
    archetype: "REDIRECT",
    position: 40,
    countries: ["TUN"],
    sandboxOnly: true,
  },
  settings: {
    // ClicToPay's REST base (https://test.clictopay.com/payment/rest for its test platform,
    // https://ipay.clictopay.com/payment/rest in production); unset in the sandbox: the in-gateway simulator.
    CLICTOPAY_API_URL: httpUrlSetting().optional(),
    // Read by `npm run merchant -- update --clictopay-username ...` only, so the password stays off the command line.
    CLICTOPAY_PASSWORD: z.string().min(1).max(100).optional(),
    ...simulatorProcessSettings("CLICTOPAY", { port: 4500, pgliteDir: ".data/clictopay-simulator" }),
  },
  // ClicToPay's page is beside its REST base.
  pageOrigins: (config: { CLICTOPAY_API_URL?: string | undefined }) =>
    config.CLICTOPAY_API_URL ? [new URL(config.CLICTOPAY_API_URL).origin] : [],
  messages: { en, fr, ar },
} as const;
