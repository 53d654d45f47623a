import { redirectMethod } from "../redirect/redirect-method";
import { clictopayProvider } from "./clictopay-provider";

/**
 * ClicToPay: Tunisian and international cards through Monétique Tunisie, under the merchant's bank contract
 * (contract 15). DIRECT and RESERVATION.
 */
export const clictopayMethod = redirectMethod("CLICTOPAY", clictopayProvider);
