/**
 * The commands of docs/going-live.md, exactly as the guide prints them. `npm run rehearse` runs
 * each of these through bash with the guide's variables set, so the guide is what was rehearsed;
 * tests/unit/going-live-guide.test.ts fails when the guide's fenced commands and this list differ.
 * Long-running ones (`serves`) are started and stopped by the rehearsal.
 */
export const GUIDE_COMMANDS = {
  createDatabase: `createdb "$GATEWAY_DATABASE"`,
  cardSimulator: `npm run --silent card-simulator -- --json`,
  chargilySimulator: `npm run --silent simulator -- chargily --json`,
  walletOperator: `npm run wallet-sandbox`,
  start: `npm start`,
  ready: `curl -fsS "$PUBLIC_BASE_URL/api/health/ready"`,
  onboard:
    `npm run --silent merchant -- create --name "Atlas Shop" --country DZA ` +
    `--redirect-url https://shop.example/return --origin https://shop.example ` +
    `--card-provider-key "$STRIPE_PUBLISHABLE_KEY" --owner-email "$OWNER_EMAIL" --json`,
  cardKeys:
    `npm run merchant -- card-keys --client-id "$CLIENT_ID" --country DZA ` +
    `--publishable-key "$STRIPE_PUBLISHABLE_KEY"`,
  chargilyKey: `npm run merchant -- update --client-id "$CLIENT_ID" --chargily-mode test`,
  auth: `export AUTH="Authorization: Bearer $(printf '%s:%s' "$CLIENT_ID" "$CLIENT_SECRET" | base64 -w0)"`,
  listen: `npm run gateway -- listen --forward-to "$FORWARD_TO"`,
  createIntent:
    `curl -fsS "$PUBLIC_BASE_URL/api/v1/payments/intents?countryCode=DZA" -H "$AUTH" ` +
    `-H 'content-type: application/json' -d "{\\"actionId\\":\\"$ORDER_ID\\",\\"amount\\":$AMOUNT,` +
    `\\"actionCurrencyCode\\":\\"DZD\\",\\"actionCountryCode\\":\\"DZA\\",\\"userId\\":\\"$BUYER_PHONE\\",` +
    `\\"captureMethod\\":\\"$CAPTURE_METHOD\\"}"`,
  proceed:
    `curl -fsS "$PUBLIC_BASE_URL/api/v1/payments/intents/$PAYMENT_ID/proceed" -H "$AUTH" ` +
    `-H "x-service: $SERVICE" -H 'x-platform: API' -H 'content-type: application/json' ` +
    `-d "{\\"paymentMethodCode\\":\\"$METHOD\\"}"`,
  check:
    `curl -fsS "$PUBLIC_BASE_URL/api/v1/payments/intents/$PAYMENT_ID/check" -H "$AUTH" ` +
    `-H "x-service: $SERVICE" -H 'x-platform: API'`,
  capture:
    `curl -sS -i "$PUBLIC_BASE_URL/api/v1/payments/intents/$PAYMENT_ID/capture" -H "$AUTH" ` +
    `-H "Idempotency-Key: capture-$PAYMENT_ID" -H 'content-type: application/json' ` +
    `-d "{\\"amount\\":$CAPTURE_AMOUNT}"`,
  refund:
    `curl -fsS "$PUBLIC_BASE_URL/api/v1/payments/$PAYMENT_ID/refund" -H "$AUTH" ` +
    `-H "Idempotency-Key: refund-$PAYMENT_ID" -H 'content-type: application/json' ` +
    `-d "{\\"description\\":\\"one item returned\\",\\"amount\\":$REFUND_AMOUNT}"`,
  events: `curl -fsS "$PUBLIC_BASE_URL/api/v1/events?limit=100" -H "$AUTH"`,
  audit: `npm run audit`,
  rehearse: `npm run rehearse`,
  cmiSimulator: `npm run --silent simulator -- cmi --json`,
  cmiCredentials:
    `npm run --silent merchant -- update --client-id "$CLIENT_ID" --country DZA --country MAR ` +
    `--cmi-client-id "$CMI_CLIENT_ID" --cmi-api-user "$CMI_API_USER" --json`,
  createCmiIntent:
    `curl -fsS "$PUBLIC_BASE_URL/api/v1/payments/intents?countryCode=MAR" -H "$AUTH" ` +
    `-H 'content-type: application/json' -d "{\\"actionId\\":\\"$ORDER_ID\\",\\"amount\\":$AMOUNT,` +
    `\\"actionCurrencyCode\\":\\"MAD\\",\\"actionCountryCode\\":\\"MAR\\",\\"userId\\":\\"$BUYER_PHONE\\",` +
    `\\"captureMethod\\":\\"$CAPTURE_METHOD\\"}"`,
  satimSimulator: `npm run --silent simulator -- satim --json`,
  satimCredentials:
    `npm run --silent merchant -- update --client-id "$CLIENT_ID" --terms-url "$TERMS_URL" ` +
    `--satim-terminal-id "$SATIM_TERMINAL_ID" --satim-username "$SATIM_USERNAME" --json`,
  clictopaySimulator: `npm run --silent simulator -- clictopay --json`,
  clictopayCredentials:
    `npm run --silent merchant -- update --client-id "$CLIENT_ID" --country DZA --country MAR --country TUN ` +
    `--clictopay-username "$CLICTOPAY_USERNAME" --json`,
  createClictopayIntent:
    `curl -fsS "$PUBLIC_BASE_URL/api/v1/payments/intents?countryCode=TUN" -H "$AUTH" ` +
    `-H 'content-type: application/json' -d "{\\"actionId\\":\\"$ORDER_ID\\",\\"amount\\":$AMOUNT,` +
    `\\"actionCurrencyCode\\":\\"TND\\",\\"actionCountryCode\\":\\"TUN\\",\\"userId\\":\\"$BUYER_PHONE\\",` +
    `\\"captureMethod\\":\\"$CAPTURE_METHOD\\"}"`,
} as const;

export type GuideCommand = keyof typeof GUIDE_COMMANDS;
