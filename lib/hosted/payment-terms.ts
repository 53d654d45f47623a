import type { FormBody } from "./read-form-body";

/** The checkbox "I accept the terms of payment" (components/terms-checkbox.tsx) posts this field. */
export const TERMS_FIELD = "acceptTerms";
export const TERMS_ACCEPTED_VALUE = "yes";

/** The form's rule: no payment without the ticked box (the browser's `required` is only a courtesy). */
export function termsAccepted(fields: FormBody): boolean {
  return fields[TERMS_FIELD] === TERMS_ACCEPTED_VALUE;
}
