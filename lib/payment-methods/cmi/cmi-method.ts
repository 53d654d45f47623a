import { redirectMethod } from "../redirect/redirect-method";
import { cmiProvider } from "./cmi-provider";

/**
 * CMI: Moroccan and international cards through CMI's 3D Pay Hosting, under the merchant's bank contract
 * (contract 15). DIRECT and RESERVATION.
 */
export const cmiMethod = redirectMethod("CMI", cmiProvider);
