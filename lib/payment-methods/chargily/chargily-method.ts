import { redirectMethod } from "../redirect/redirect-method";
import { chargilyProvider } from "./chargily-provider";

/**
 * Chargily Pay: CIB and EDAHABIA cards through an aggregator, no bank contract needed (contract 15). DIRECT
 * only; refunds in Chargily's dashboard.
 */
export const chargilyMethod = redirectMethod("CHARGILY", chargilyProvider);
