import { z } from "zod";
import ar from "./messages.ar.json";
import en from "./messages.en.json";
import fr from "./messages.fr.json";
import { httpUrlSetting, simulatorProcessSettings } from "../../../validation/setting-schemas";

/**
 * What the gateway knows of SATIM without loading it (lib/payment-methods/declarations): its
 * code, its provider name, its catalog row, its configuration variables and where its payment
 * page is. Imports nothing but the setting shapes, so the configuration, the codes and the
 * proxy's CSP read it early.
 */
export const satimDeclaration = {
  code: "SATIM",
  provider: "satim",
  catalog: {
    name: "satim",
    displayNames: { en: "CIB / EDAHABIA", fr: "CIB / EDAHABIA", ar: "CIB / الذهبية" },
    imagePath: "/payment-methods/cib-edahabia.svg",
    archetype: "REDIRECT",
    position: 30,
    countries: ["DZA"],
    sandboxOnly: true,
  },
  settings: {
    // SATIM ePay's REST base (e.g. https://test2.satim.dz/payment/rest for SATIM's test platform);
    // unset in the sandbox: the in-gateway SATIM simulator. Required before a production merchant takes SATIM.
    SATIM_API_URL: httpUrlSetting().optional(),
    // Read by `npm run merchant -- update --satim-...` only, so SATIM's password stays off the command line.
    SATIM_PASSWORD: z.string().min(1).max(30).optional(),
    ...simulatorProcessSettings("SATIM", { port: 4200, pgliteDir: ".data/satim-simulator" }),
  },
  // SATIM's page is beside its REST base.
  pageOrigins: (config: { SATIM_API_URL?: string | undefined }) =>
    config.SATIM_API_URL ? [new URL(config.SATIM_API_URL).origin] : [],
  messages: { en, fr, ar },
} as const;
