import { chargilySimulator } from "./chargily/chargily-simulator-entry";
import { clictopaySimulator } from "./clictopay/clictopay-simulator-entry";
import { cmiSimulator } from "./cmi/cmi-simulator-entry";
import type { RedirectSimulator } from "./redirect-simulator";
import { satimSimulator } from "./satim/satim-simulator-entry";

/**
 * Every redirect provider's simulator, by the name the gateway's adapter asks the mount for
 * (redirectSimulatorMount("satim")): served by a sandbox gateway under /api/<name>-sandbox,
 * by `npm run simulator -- <name>` as a process, by the chaos run under /<name>. One line each.
 */
export const REDIRECT_SIMULATORS = {
  satim: satimSimulator,
  clictopay: clictopaySimulator,
  cmi: cmiSimulator,
  chargily: chargilySimulator,
} satisfies Record<string, RedirectSimulator>;

export type RedirectSimulatorName = keyof typeof REDIRECT_SIMULATORS;
