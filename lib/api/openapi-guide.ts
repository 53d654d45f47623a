import type { ErrorName } from "../errors/api-error";

/** What each error name means to the caller, and what to do about it (contract section 1). */
export const ERROR_MEANINGS: Record<ErrorName, string> = {
  validation_error:
    "The body, query or a header fails its schema, or the JSON is malformed. " +
    "`details` lists every failing field with its own message. Fix the request.",
  amount_exceeds_reserved: "Capture amount above the reserved amount.",
  amount_exceeds_refundable: "Refund amount above what remains refundable.",
  invalid_credentials:
    "Missing, malformed, unknown, revoked or expired credential, or one of a mode this endpoint does not accept. " +
    "Under merchant_auth also an unknown intent or another merchant's intent: " +
    "no finer cause is told, so ids cannot be enumerated.",
  origin_not_allowed: "merchant_auth from a browser whose Origin is not on the service's allow-list.",
  not_found: "Unknown resource; another service's objects do not exist for you.",
  method_not_allowed: "A known path called with a method it does not serve; the `Allow` header lists those it does.",
  customer_exists: "A customer with this phone already exists in the service (safe to ignore on registration).",
  invalid_state:
    "The payment's state does not allow this (capture of a DIRECT or non-reserved payment, " +
    "refund of an uncaptured one, proceed of a processed one, a second capture or release, " +
    "a wallet method where only cards are offered).",
  request_in_progress:
    "The same Idempotency-Key is still being processed, or another provider operation on this payment " +
    "(capture, release, refund) is still being completed: retry a little later (`Retry-After` when given).",
  intent_expired: "The intent passed its 30 minutes plus 30 s grace before completing: create a new intent.",
  payload_too_large: "Body over 64 KiB.",
  unsupported_media_type: "Send the body as `application/json`.",
  idempotency_conflict: "`actionId` or `Idempotency-Key` reused with different parameters.",
  rate_limited: "Too many requests: wait `Retry-After` seconds.",
  provider_unavailable:
    "The wallet or card provider failed or did not answer in time; " +
    "the operation is recorded and finished by reconciliation, never applied twice. " +
    "Retry after `Retry-After` seconds with the same Idempotency-Key to get the final outcome " +
    "(also notified, and shown by check).",
  service_unavailable:
    "The database cannot be reached right now: nothing was done. " +
    "Retry after `Retry-After` seconds (same Idempotency-Key).",
  internal_error: "Unexpected; logged with the request id. Quote `error.requestId` when reporting it.",
};

/** The statusCode table of the interface, with the action each asks of the merchant. */
export const STATUS_CODES: readonly { code: number; meaning: string; action: string }[] = [
  {
    code: 1,
    meaning: "Proceeding: a QR wallet payment awaiting the customer (check only; also CREATED and PROCESSING)",
    action: "Wait; poll check with back-off or wait for the notification.",
  },
  { code: 2, meaning: "Success (also after a capture)", action: "Show success; ship the order." },
  {
    code: 3,
    meaning: "Rejected (declined, insufficient balance, expired, too many wrong OTPs)",
    action: "Show the error; allow a retry with a new intent.",
  },
  { code: 4, meaning: "Refunded (every refund result; check: fully refunded)", action: "Nothing; refunds are final." },
  {
    code: 10,
    meaning: "Reversed / released (release result, or a reservation released after 7 days)",
    action: "Nothing is owed; the reservation is gone.",
  },
  {
    code: 12,
    meaning: "Requires action",
    action: "Redirect the buyer to `metadata.payUrl` (OTP: append `returnUrl`).",
  },
  { code: 13, meaning: "Pre-authorized (RESERVATION)", action: "Capture (all or part) or release." },
  { code: 14, meaning: "Auto-refund (listed by the interface; this gateway does not send it)", action: "-" },
  {
    code: 16,
    meaning: "Partially refunded (check only)",
    action: "Refund more if needed; `amount` omitted refunds the rest.",
  },
];

const statusTable = [
  "| statusCode | Meaning | Action |",
  "|---|---|---|",
  ...STATUS_CODES.map((row) => `| ${row.code} | ${row.meaning} | ${row.action} |`),
].join("\n");

const errorTable = (statusOf: Record<ErrorName, number>) =>
  [
    "| HTTP | error.name | Meaning |",
    "|---|---|---|",
    ...(Object.keys(ERROR_MEANINGS) as ErrorName[]).map(
      (name) => `| ${statusOf[name]} | \`${name}\` | ${ERROR_MEANINGS[name]} |`,
    ),
  ].join("\n");

/** The document's introduction: everything a developer needs that no single operation says. */
export function apiIntroduction(statusOf: Record<ErrorName, number>): string {
  // A backslash ending a line continues it: the text has no line break there.
  return `Hosted-checkout payment gateway. Start with [take your first payment](/docs/first-payment).

## Flow
Create an intent (server, client_auth) → proceed (server or browser) → if \`statusCode\` is 12, \
send the buyer to \`metadata.payUrl\` →
the buyer returns to your \`returnUrl\` / \`redirectUrl\` (or the service's redirect URL) \
with \`paymentId\` and \`statusCode\` →
confirm with check and/or the notification (webhook). Never trust the redirect's \`statusCode\` alone.

## Authentication
Three modes, told apart by the credential:
- **client_auth** (your server): \`Authorization: Bearer <base64(clientId:clientSecret)>\`. \
Not HTTP Basic: the scheme word is \`Bearer\`, and the \`id:secret\` pair must be base64-encoded.
- **merchant_auth** (browser or SDK, one payment): \`Authorization: Bearer pk_service_…\` **plus** \
\`x-client-secret: pa_…_secret_…\` (the intent's clientSecret). The service comes from the key \
(\`x-service\` is ignored), the country from the intent, and a browser's \`Origin\` must be allow-listed. \
Cross-origin calls from your checkout page work as they are: the operations that take merchant_auth answer \
CORS preflights and send \`Access-Control-Allow-Origin: *\`; the others (client_auth, user_auth) \
answer browsers none.
- **user_auth** (a signed-in customer): the customer access token in \`x-client-token\` (or as the Bearer \
token), with \`x-service\`.

## Headers
- \`x-service\`: your service code. **Required** with client_auth and user_auth on proceed, check, \
the user-context methods list, the card provider key and saved cards; \
elsewhere optional, but when sent it must be yours. Ignored with merchant_auth.
- \`x-platform\`: \`API\`, \`WEB\`, \`ANDROID\` or \`IOS\`; required on proceed, check, \
the user-context methods list and saved cards.
- \`x-country-code\`: ISO 3166-1 **alpha-3** (\`DZA\`). Deprecated on proceed (never selects the country). \
Required on delete card, and for client_auth/user_auth on the card provider key and user-context methods.
- \`x-locale\`: e.g. \`fr_FR\`; localizes method names and the hosted pages.
- \`Idempotency-Key\` (≤ 255 characters): on proceed, capture, release, refund and card finalize.
- \`x-request-id\`: echoed when sane (≤ 128 characters), else generated; quote it when reporting a problem.

## Country codes: alpha-2 vs alpha-3
Only \`GET /payment-methods/available?countryCode=\` takes **alpha-2** (\`DZ\`). \
Create intent (\`countryCode\` query, \`actionCountryCode\`) and the \`x-country-code\` header take \
**alpha-3** (\`DZA\`).

## Interface quirks kept for compatibility
- **\`metadata\` vs \`metaData\`**: the proceed result says \`metadata.payUrl\`; \
capture and release results say \`metaData.payUrl\`; the create body takes \`metaData\`.
- **Refund 4 vs check 16**: the refund call answers \`statusCode\` 4 for full and partial refunds alike; \
check answers 4 when fully refunded and 16 when partially refunded. Use \`remainingRefundableAmount\`.
- **\`require3DS\` for a wallet OTP**: \`require3DS: true\` only means "send the buyer to payUrl"; \
for \`WALLET_V2\` that is an OTP page, not 3-D Secure.
- **\`endUserMessage\` string or object**: a string, except for a \`QR_CODE\` payment where it is \`{ en, fr, ar }\`.
- **No statusCode in the QR proceed result**: poll check (1 until the customer answers) or wait for the notification.
- A refund **without \`amount\` refunds the rest**; a capture without \`amount\` captures the whole reservation.

## Amounts
JSON numbers in the currency's standard unit (DZD 2 decimals, TND 3, ...); \
more decimals than the currency allows, zero, negative or above 1,000,000,000 is \`validation_error\`. \
A rejected payment is not an HTTP error: 200 with statusCode 3.

## Status codes
${statusTable}

## Errors
Every error is \`{ code, status: "error", message, error: { name, requestId, details? } }\`.
${errorTable(statusOf)}

## Idempotency
Create intent is idempotent on (service, \`actionId\`). Proceed, capture, release, \
refund and card finalize accept \`Idempotency-Key\`: a retry with the same key and body within 24 hours \
answers the first response (status included) with \`Idempotent-Replayed: true\`; \
a different body is 422 \`idempotency_conflict\`; while the first runs, 409 \`request_in_progress\`. \
A refusal of the operation itself (404, 409 \`invalid_state\`, 410) is a first response too and is \
replayed. A request refused by validation, auth, the rate limit or an amount to correct (400) \
is not remembered: a corrected retry with the same key runs. \
One that did not finish (503, 409 \`request_in_progress\`) keeps the key for the same body only: \
retry it unchanged to get the final outcome. \
Without a key the state machine still refuses a second capture, release or over-refund.

## Rate limits
merchant_auth: 600/min per publishable key and 120/min per client secret; \
client_auth: 6,000/min per client id; user_auth: 300/min per customer (GCRA, shared by every instance). \
Responses carry \`RateLimit-Policy\` (e.g. \`"secret";q=120;w=60\`) \
and \`RateLimit\` (e.g. \`"secret";r=37;t=12\`); a 429 adds \`Retry-After\` in seconds.

## Expiry
An intent expires 30 minutes after creation (\`expiresAt\`), enforced after a further 30 s grace: \
merchant_auth calls then answer 410 \`intent_expired\`, and a proceed fails the intent (statusCode 3, \
notification). A reservation (13) is not bound by the 30 minutes for client_auth; \
left alone 7 days it is released (10).

## Redirects and allow-listed origins
After the hosted OTP or card page the buyer goes to \`returnUrl\` (OTP: append it to payUrl) \
or \`redirectUrl\` (card: proceed body), else the service's redirect URL, \
with \`paymentId\` and \`statusCode\` added. A \`returnUrl\`/\`redirectUrl\` whose origin is neither the \
redirect URL's origin nor an allow-listed origin is ignored (no open redirect): \
add the origin to the service (\`npm run merchant -- update\`).

## Notifications
See \`webhooks\`: signed per Standard Webhooks (\`webhook-id\`, \`webhook-timestamp\`, \
\`webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">\` with the \`whsec_\` secret shown at \
onboarding). Delivered at least once, retried with growing delays for at least 24 hours, \
same \`webhook-id\` on every retry: deduplicate on it and answer 2xx quickly.
`;
}
