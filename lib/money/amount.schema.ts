import { z } from "zod";
import { ApiError } from "../http/api-error";
import { AmountError, decimalPlaces, MAX_AMOUNT_STANDARD_UNITS, toMinorUnits } from "./amount";
import { MAX_EXPONENT } from "./currencies";

/**
 * An `amount` field in standard units, checked as far as it can be without knowing the
 * currency; `minorUnitsOrThrow` finishes the job once the currency is known.
 */
export const amountSchema = z
  .number({ error: "must be a number" })
  .positive("must be greater than zero")
  .max(MAX_AMOUNT_STANDARD_UNITS, `must be at most ${MAX_AMOUNT_STANDARD_UNITS}`)
  .refine((value) => fitsMaxExponent(value), `must have at most ${MAX_EXPONENT} decimal places`);

/** Converts an amount for `currency`, refusing it as a validation_error on `path`. */
export function minorUnitsOrThrow(amount: number, currency: string, path = "amount"): number {
  try {
    return toMinorUnits(amount, currency);
  } catch (error) {
    if (!(error instanceof AmountError)) throw error;
    throw new ApiError("validation_error", "The request is invalid.", [{ path, message: error.message }]);
  }
}

function fitsMaxExponent(value: number): boolean {
  try {
    return decimalPlaces(value) <= MAX_EXPONENT;
  } catch {
    return false;
  }
}
