import type { Locale } from "@/lib/i18n/routing";
import { translator } from "@/lib/i18n/translator";

/*
 * The console's words for what a form's field or an operation was refused for. The domain and
 * the API's schemas word their refusals in English for the API's `details[].message` (contract
 * 1); a console page never shows those words: each known rule has its sentence in
 * messages/console/*.json (`consoleProblems`), and anything else the page's general "cannot be
 * used" sentence, so no English reaches a French or Arabic page.
 */

/** A rule's message as the API words it, and the key (with its values) of the console's sentence. */
const FIELD_RULES: readonly [RegExp, string, (match: RegExpExecArray) => Record<string, string>][] = [
  [/^must be (?:a number|a finite number|a plain decimal number)$/, "notNumber", () => ({})],
  [/^must not be negative$/, "negative", () => ({})],
  [/^must be greater than zero$/, "notPositive", () => ({})],
  [/^must be at most (\d+)$/, "tooLarge", (match) => ({ max: match[1]! })],
  [/^must be a whole number for [A-Z]{3}$/, "wholeNumber", () => ({})],
  [/^must have at most (\d+) decimal places(?: for [A-Z]{3})?$/, "tooManyDecimals", (match) => ({ count: match[1]! })],
  [/^must be at most (\d+) characters$/, "tooLong", (match) => ({ max: match[1]! })],
  [/^Too big: expected string to have <=(\d+) characters$/, "tooLong", (match) => ({ max: match[1]! })],
  [/^must not be empty$/, "required", () => ({})],
  [/^Too small: expected string to have >=1 characters?$/, "required", () => ({})],
  [/^Invalid input: expected string, received undefined$/, "required", () => ({})],
  [
    /^(?:is not a (?:supported )?currency(?: the gateway accepts)?|must be an ISO 4217 code such as DZD)$/,
    "currency",
    () => ({}),
  ],
  [/^must be a date \(YYYY-MM-DD\) or an ISO 8601 time$/, "date", () => ({})],
  [/^must be an ISO 8601 date-time/, "dateTime", () => ({})],
  [/^must be at least minAmount$/, "belowMinimum", () => ({})],
  [/^must be omitted when amount is given/, "boundsWithAmount", () => ({})],
  [/^must be in the future/, "inThePast", () => ({})],
  [/^must be an http\(s\) URL$|^Invalid URL$/, "url", () => ({})],
  [/^In production the webhook URL must use https/, "httpsOnly", () => ({})],
  [/^must be an https URL$/, "httpsUrl", () => ({})],
  [/^In production the webhook URL must reach a public address/, "publicAddress", () => ({})],
  [/^The service has no webhook URL/, "noWebhookUrl", () => ({})],
  [/^must be SATIM's terminal id/, "satimTerminalId", () => ({})],
];

/** A field's refusal (a `details[].message`) in the page's language. */
export function fieldProblemText(locale: Locale, message: string | undefined | null): string {
  const t = translator(locale, "consoleProblems");
  for (const [pattern, key, values] of FIELD_RULES) {
    const match = pattern.exec(message ?? "");
    if (match) return t(key, values(match));
  }
  return t("invalid");
}

/**
 * An operation's refusal by its error name (capture, release, refund): the amounts and state
 * the page knows are put in by the page, since the API's message carries them in English.
 */
export function operationProblemText(
  locale: Locale,
  errorName: string | undefined,
  values: { refundable: string; capturable: string; state: string },
): string {
  const t = translator(locale, "consoleProblems");
  switch (errorName) {
    case "amount_exceeds_refundable":
      return t("aboveRefundable", { max: values.refundable });
    case "amount_exceeds_reserved":
      return t("aboveReserved", { max: values.capturable });
    case "invalid_state":
    case "intent_expired":
      return t("state", { state: values.state });
    case "idempotency_conflict":
      return t("formChanged");
    case "request_in_progress":
      return t("inProgress");
    case "provider_unavailable":
    case "service_unavailable":
      return t("provider");
    default:
      return t("notDone");
  }
}
