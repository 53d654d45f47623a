import { AsyncLocalStorage } from "node:async_hooks";
import pino, { type DestinationStream, type Logger } from "pino";
import { peekConfig } from "./config";
import { passesLuhn } from "./validation/card-number";

/**
 * Credentials never reach a log line, whatever carries them. Two layers: fields redacted
 * by name (cheap, exact), then every string of the finished line scrubbed of anything
 * shaped like one of our credentials, which catches a secret inside an error message, a
 * stack or a field nobody thought to name.
 */
const REDACTED_FIELDS = [
  "authorization",
  "clientSecret",
  "client_secret",
  "accessToken",
  "access_token",
  "refreshToken",
  "refresh_token",
  "clientToken",
  "client_token",
  "token",
  "otp",
  "code",
  "cardNumber",
  "card_number",
  "number",
  "pan",
  "cvc",
  "cvv",
  "webhookSecret",
  "webhook_secret",
  "webhookSecretEncrypted",
  "publishableKey",
  "password",
  "secret",
  "secretHash",
  "apiKey",
  "api_key",
  "cookie",
  "GATEWAY_SECRET",
  "CARD_PROVIDER_SECRET_KEY",
  "STRIPE_SECRET_KEY",
  "STRIPE_WEBHOOK_SECRET",
  "secretKey",
  "secretKeySealed",
  "webhookSecretSealed",
  "client_secret",
  "WALLET_PROVIDER_SECRET",
  "DATABASE_URL",
  "REDIS_URL",
];
const REDACTED_HEADERS = ["authorization", "x-client-secret", "x-client-token", "cookie", "set-cookie"];

// pino paths have no recursive wildcard: name fields at the top and two levels down.
const REDACT_PATHS = [
  ...REDACTED_FIELDS.flatMap((field) => [field, `*.${field}`, `*.*.${field}`]),
  ...REDACTED_HEADERS.flatMap((header) => [`headers["${header}"]`, `*.headers["${header}"]`]),
];

const CENSOR = "[redacted]";
// A client secret as issued: 32 random bytes in unpadded base64url.
const ISSUED_SECRET_LENGTH = 43;

/** Credential shapes this gateway issues or receives, each replaced where it appears in a string. */
const CREDENTIAL_SHAPES: [RegExp, string][] = [
  // Payment client secret: keep the payment id, which support needs and which is no credential.
  [/(pa_[0-9a-f-]{36}_secret_)[0-9a-f]+/gi, `$1${CENSOR}`],
  // The card provider's client secrets (a PaymentIntent's or SetupIntent's, as Stripe.js gets them): keep the
  // intent id.
  [/\b((?:pi|seti)_[A-Za-z0-9]+_secret_)[A-Za-z0-9]+/g, `$1${CENSOR}`],
  // Customer access and refresh tokens, webhook secrets, publishable keys.
  [/\b(cat_|crt_|whsec_|pk_service_|sk_test_|sk_live_|rk_test_|rk_live_)[A-Za-z0-9+/=_-]+/g, `$1${CENSOR}`],
  // Any bearer credential (client_auth's base64 pair, a publishable key, a token).
  [/\b(Bearer\s+)[^\s"\\]+/gi, `$1${CENSOR}`],
  // A client secret as issued, standing alone. A provider operation's id (`op_` and 40 hex
  // digits, lib/provider-operations) has the same length but is no secret: an operator quotes it
  // to the wallet or Stripe to ask about a call, so it stays readable.
  [
    new RegExp(
      `(?<![A-Za-z0-9_-])(?!op_[0-9a-f]{40}(?![A-Za-z0-9_-]))[A-Za-z0-9_-]{${ISSUED_SECRET_LENGTH}}(?![A-Za-z0-9_-])`,
      "g",
    ),
    CENSOR,
  ],
];

// A run of 13 to 19 digits (not a phone: no leading +), or one written in groups of 4 (or
// Amex's 4-6-5) with spaces or dashes, as printed on the card, that passes the Luhn check.
const CARD_NUMBER = /(?<![\d+])(?:\d{13,19}|\d{4}(?:[ -]\d{4}){2}[ -]\d{1,7}|\d{4}[ -]\d{6}[ -]\d{5})(?![\d])/g;
const JSON_STRING = /"(?:[^"\\]|\\.)*"/g;
// What every shape above needs somewhere in its text: most lines, and most literals (ids, paths,
// messages), have none, and one scan for it is cheaper than a pass of each shape. The digits of
// pino's own `"time":` field (13 of them since 2001) are a number, never a literal, and a
// literal cannot hold that unescaped prefix. The issued secret's run is counted by hand: as a
// regular expression it cost five times the rest of the test.
const CREDENTIAL_MARKERS = new RegExp(
  [
    /pa_|cat_|crt_|whsec_|pk_service_|[sr]k_(?:test|live)_|_secret_|bearer/, // tokens' prefixes
    /(?<!\d|"time":)\d{13}|\d{4}[ -]\d{4}[ -]\d{4}|\d{4}[ -]\d{6}[ -]\d{5}/, // card numbers' digits
  ]
    .map((part) => part.source)
    .join("|"),
  "i",
);

/**
 * Whether JSON text (a log line or one of its literals) has any marker of a credential shape: one that has
 * none is written as it is.
 */
export function mayHoldCredential(text: string): boolean {
  return CREDENTIAL_MARKERS.test(text) || hasRunOfBase64Url(text, ISSUED_SECRET_LENGTH);
}

function hasRunOfBase64Url(text: string, length: number): boolean {
  let run = 0;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const inAlphabet =
      (code >= 48 && code <= 57) ||
      (code >= 65 && code <= 90) ||
      (code >= 97 && code <= 122) ||
      code === 45 ||
      code === 95;
    if (!inAlphabet) run = 0;
    else if (++run >= length) return true;
  }
  return false;
}

/** Scrubs credential-shaped text from the string literals of one JSON log line. */
export function scrubCredentials(line: string): string {
  // Every literal is part of the line, so a line without a marker has no literal to scrub. Most
  // lines (the access line of every request) end here, at a twentieth of the literal walk's cost.
  if (!mayHoldCredential(line)) return line;
  return line.replace(JSON_STRING, (literal) => {
    if (!mayHoldCredential(literal)) return literal;
    let scrubbed = literal;
    for (const [shape, replacement] of CREDENTIAL_SHAPES) scrubbed = scrubbed.replace(shape, replacement);
    return scrubbed.replace(CARD_NUMBER, (written) => (passesLuhn(written.replace(/[ -]/g, "")) ? CENSOR : written));
  });
}

/** What every log line written while serving one request carries. */
export interface RequestLogContext {
  requestId: string;
  authMode?: string;
  service?: string;
  /** The request's OpenTelemetry trace id, while traces are on (lib/tracing). */
  traceId?: string;
}

/**
 * Each request's log context, carried by an AsyncLocalStorage. On globalThis: the route
 * handlers of Next.js's bundle, instrumentation.ts and the API's fast lane (lib/http/api-lane.ts,
 * a bundle of its own) each load their own copy of this module, and must share one context and
 * one logger.
 */
const shared = globalThis as {
  gatewayLogContextStore?: AsyncLocalStorage<RequestLogContext>;
  gatewayLogger?: Logger;
};
const requestContext = (shared.gatewayLogContextStore ??= new AsyncLocalStorage<RequestLogContext>());

/** Runs `fn` with `context` attached to every log line it (and anything it awaits) writes. */
export function runWithLogContext<T>(context: RequestLogContext, fn: () => T): T {
  return requestContext.run(context, fn);
}

/** The current request's context, to add what becomes known later (auth mode, service). */
export function currentLogContext(): RequestLogContext | undefined {
  return requestContext.getStore();
}

/** Adds what auth learned to the rest of the request's log lines. */
export function noteRequestPrincipal(principal: { mode: string; service?: { code: string } }): void {
  const context = currentLogContext();
  if (!context) return;
  context.authMode = principal.mode;
  if (principal.service) context.service = principal.service.code;
}

/** LOG_LEVEL; "info" while the configuration is invalid, so the start can still say what is wrong. */
function configuredLogLevel(): string {
  try {
    return peekConfig().LOG_LEVEL;
  } catch {
    return "info";
  }
}

export function createLogger(options: { destination?: DestinationStream; level?: string } = {}): Logger {
  return pino(
    {
      level: options.level ?? configuredLogLevel(),
      base: undefined,
      // Fields the call itself passes win over the context's (pino's default merge).
      mixin: () => ({ ...currentLogContext() }),
      redact: { paths: REDACT_PATHS, censor: CENSOR },
      hooks: { streamWrite: scrubCredentials },
    },
    options.destination ?? standardOutput(),
  );
}

/**
 * Standard output in blocks of up to 4 KiB instead of one write per line: that write was most of
 * what the access log line cost a request. What waits is written within a second, and pino
 * writes the rest when the process exits.
 */
function standardOutput(): DestinationStream {
  const destination = pino.destination({ dest: 1, sync: false, minLength: 4096 });
  setInterval(() => destination.flush(), 1000).unref();
  return destination;
}

/** One per process: two loggers would each buffer standard output and could interleave their blocks. */
export const logger = (shared.gatewayLogger ??= createLogger());
