import { z } from "zod";
import { ApiError } from "../errors/api-error";
import { AmountError, decimalPlaces, MAX_AMOUNT_STANDARD_UNITS, toMinorUnits } from "./amount";
import { MAX_EXPONENT } from "./currencies";

/**
 * An `amount` field in standard units, checked as far as it can be without knowing the
 * currency; `minorUnitsOrThrow` (or `amountProblemFor`) finishes the job once the currency is
 * known. One message per amount: the first rule it breaks, in the order a reader would fix them.
 */
export const amountSchema = z.number({ error: "must be a number" }).check((ctx) => {
  const problem = amountProblem(ctx.value);
  if (problem) ctx.issues.push({ code: "custom", message: problem, input: ctx.value });
});

/** The first rule of contract 2 the amount breaks without knowing its currency, or null. */
export function amountProblem(value: number): string | null {
  if (!Number.isFinite(value)) return "must be a finite number";
  if (value <= 0) return "must be greater than zero";
  if (value > MAX_AMOUNT_STANDARD_UNITS) return `must be at most ${MAX_AMOUNT_STANDARD_UNITS}`;
  if (!fitsMaxExponent(value)) return `must have at most ${MAX_EXPONENT} decimal places`;
  return null;
}

/**
 * The currency's own rule (its decimals), for an amount that already passed `amountSchema`:
 * null when it fits, else the one message to report.
 */
export function amountProblemFor(value: number, currency: string): string | null {
  if (amountProblem(value) !== null) return null; // already reported once by amountSchema
  try {
    toMinorUnits(value, currency);
    return null;
  } catch (error) {
    if (error instanceof AmountError) return error.message;
    throw error;
  }
}

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
