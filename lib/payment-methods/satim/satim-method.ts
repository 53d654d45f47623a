import { redirectMethod } from "../redirect/redirect-method";
import { satimProvider } from "./satim-provider";

/** SATIM: CIB and EDAHABIA cards through SATIM ePay, under the merchant's bank contract (contract 15). DIRECT only. */
export const satimMethod = redirectMethod("SATIM", satimProvider);
