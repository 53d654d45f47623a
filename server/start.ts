// The preparing half of `npm start` (server/serve.mjs runs it, then serves): build when
// needed, migrate, greet with the demo merchant, and exit, so tsx does not stay resident
// beside the servers.
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { getConfig, type Config } from "../lib/config";
import { closeDatabase } from "../lib/db/client";
import { openDatabaseWhenReachable } from "../lib/db/open-when-reachable";
import { ensureDemoMerchant } from "../lib/merchants/ensure-demo-merchant";
import { ensureDemoOwner } from "../lib/console/merchants/ensure-demo-owner";
import { getGatewayKey } from "../lib/crypto/gateway-key";
import { listMerchants } from "../lib/merchants/list-merchants";
import { demoMerchantServiceId } from "../lib/merchants/demo-merchant";
import { runCli } from "../scripts/lib/cli";
import { buildGateway, needsBuild } from "../scripts/lib/gateway-build";

/** What server/serve.mjs needs to serve, validated here by lib/config. */
function serveSettings(config: Config) {
  return {
    port: config.PORT,
    hostname: config.HOST,
    // The embedded database admits one process.
    processes: config.DATABASE_URL ? config.WEB_CONCURRENCY : 1,
    shutdownTimeoutMs: config.GATEWAY_SHUTDOWN_TIMEOUT_MS,
    heapGrowthPercent: config.GATEWAY_HEAP_GROWTH_PERCENT,
    lanesBundle: config.GATEWAY_LANES_BUNDLE,
  };
}

async function main() {
  const { values } = parseArgs({
    options: { rebuild: { type: "boolean", default: false }, "settings-out": { type: "string" } },
  });
  const config = getConfig();
  // The database first: one refused (another environment, another secret) stops the start
  // before minutes of building.
  const { db, driver } = await openDatabaseWhenReachable();
  if (needsBuild() || values.rebuild) {
    console.log("Building the gateway (sources changed since the last build)...");
    const { status } = buildGateway();
    if (status !== 0) process.exit(status);
  }

  if (config.isSandbox) {
    const created = await ensureDemoMerchant(db, config.publicBaseUrl);
    if (created) {
      console.log("\nDemo merchant created. Its secrets are shown this once:\n" + JSON.stringify(created, null, 2));
    } else {
      const demoId = await demoMerchantServiceId(db);
      const [demo] = demoId ? await listMerchants(db, demoId) : [];
      if (demo) {
        console.log(
          `\nDemo merchant: service ${demo.service}, client id ${demo.clientId}, ` +
            `publishable key ${demo.publishableKey}` +
            `\n(new client secret: npm run merchant -- rotate-secret --client-id ${demo.clientId}, ` +
            "with the gateway stopped on the embedded database)",
        );
      }
    }
    // Contract 13: the demo merchant's owner signs in to the console with these.
    const owner = await ensureDemoOwner(db, await getGatewayKey(db));
    if (owner) {
      console.log(
        `\nConsole: ${config.publicBaseUrl}/en/console/sign-in  ·  ` +
          `demo owner ${owner.email}, password ${owner.password}` +
          " (unless changed in the console)",
      );
    }
  }
  await closeDatabase();

  const settings = serveSettings(config);
  if (values["settings-out"]) writeFileSync(values["settings-out"], JSON.stringify(settings));
  const processes = settings.processes;
  console.log(
    `\nGateway (${config.APP_ENV}, ${driver}, ${processes} process${processes === 1 ? "" : "es"})` +
      ` at ${config.publicBaseUrl}  ·  API base ${config.publicBaseUrl}/api/v1\n`,
  );
}

runCli(main);
