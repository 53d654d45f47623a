// `npm run card-simulator [-- --publishable-key pk_test_... --json]`: the Stripe simulator
// (simulators/card/stripe-simulator.ts) as a process of its own, on a database of its own,
// standing in for Stripe: its API (api.stripe.com's /v1 paths, Stripe's wire format) and its
// Stripe.js (js.stripe.com's /v3). It prints the account's publishable key, secret key and
// webhook signing secret, derived from the simulator's own secret (kept in its database, so they
// hold across restarts), for `npm run merchant -- card-keys`. A gateway points at it with
// CARD_PROVIDER_API_URL; a browser whose js.stripe.com and api.stripe.com are routed here runs the
// production card page unchanged. Its events go to $PUBLIC_BASE_URL/api/v1/webhooks/card-provider.
import { parseArgs } from "node:util";
import { getConfig } from "../lib/config";
import { getGatewayKey, useGatewayKey } from "../lib/crypto/gateway-key";
import { GatewayDatabaseError, openSimulatorDatabase } from "../lib/db/simulator-database";
import { sandboxAccountOf } from "../lib/providers/card/card-provider-accounts";
import { cardSimulatorSecret } from "../simulators/card/card-simulator-secret";
import { redeliverPendingEvents } from "../simulators/card/sandbox-event-delivery";
import { startStripeSimulator } from "../simulators/card/stripe-simulator";
import { stripeJsStandInSource } from "../simulators/card/stripe-js-stand-in";
import { HelpRequested, runCli, UsageError } from "./lib/cli";

const USAGE = `Usage: npm run card-simulator [-- --publishable-key pk_test_... --json]
  Serves the Stripe simulator on CARD_SIMULATOR_HOST:CARD_SIMULATOR_PORT (default 127.0.0.1:4100),
  on CARD_SIMULATOR_DATABASE_URL or the PGlite directory CARD_SIMULATOR_PGLITE_DIR, and prints the
  account's keys. --json prints them as one JSON line.`;

async function main() {
  const { values } = parseArgs({
    options: {
      "publishable-key": { type: "string", default: "pk_test_card_simulator" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) throw new HelpRequested(USAGE);
  const publishableKey = values["publishable-key"];
  if (!/^pk_test_[A-Za-z0-9_]+$/.test(publishableKey))
    throw new UsageError("--publishable-key must look like pk_test_<letters, digits, _>");
  const config = getConfig();
  // Its own database, never a gateway's: the simulator is Stripe's side of the wire.
  const database = await openSimulatorDatabase({
    databaseUrl: config.CARD_SIMULATOR_DATABASE_URL,
    pgliteDir: config.CARD_SIMULATOR_PGLITE_DIR,
    settings: "CARD_SIMULATOR_DATABASE_URL (or CARD_SIMULATOR_PGLITE_DIR)",
    simulator: "card simulator",
  }).catch((error: unknown) => {
    throw error instanceof GatewayDatabaseError ? new UsageError(error.message) : error;
  });
  if (!config.GATEWAY_SECRET) useGatewayKey(await cardSimulatorSecret(database.db));
  const simulator = await startStripeSimulator({
    db: async () => database.db,
    port: config.CARD_SIMULATOR_PORT,
    host: config.CARD_SIMULATOR_HOST,
    stripeJs: stripeJsStandInSource,
  });
  const url = config.CARD_SIMULATOR_PUBLIC_URL?.replace(/\/+$/, "") ?? `http://localhost:${config.CARD_SIMULATOR_PORT}`;
  const account = sandboxAccountOf(await getGatewayKey(database.db), publishableKey);
  const printed = { apiUrl: url, stripeJsUrl: `${url}/v3`, ...account };
  if (values.json) {
    process.stdout.write(`${JSON.stringify(printed)}\n`);
  } else {
    console.log(
      `Card simulator (${database.driver}) on http://${config.CARD_SIMULATOR_HOST}:${config.CARD_SIMULATOR_PORT}`,
    );
    console.log(`  CARD_PROVIDER_API_URL=${url}   (the gateway's Stripe adapter)`);
    console.log(`  Stripe.js: ${url}/v3   (route https://js.stripe.com/v3 here, and api.stripe.com to ${url})`);
    console.log(`  publishable key:        ${account.publishableKey}`);
    console.log(`  secret key:             ${account.secretKey}`);
    console.log(`  webhook signing secret: ${account.webhookSecret}`);
  }
  // Events the gateway did not take at once are sent again, as Stripe retries.
  const redelivery = setInterval(() => void redeliverPendingEvents(database.db).catch(() => {}), 5_000);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      clearInterval(redelivery);
      void simulator
        .close()
        .then(() => database.close())
        .then(() => process.exit(0));
    });
  }
}

runCli(main, { usage: USAGE });
