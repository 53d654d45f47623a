// A gateway server process as far as the metrics go, for tests/integration/metrics.test.ts: it
// answers `count` creates (as the lane counts them) and publishes its snapshot as a server does
// (startMetricsPublisher, every 5 s), until it is stopped (SIGTERM).
// Usage: node --import tsx tests/support/metrics-process.ts <count>
import { closeDatabase, getDb } from "@/lib/db/client";
import { publishMetricsSnapshot, startMetricsPublisher } from "@/lib/metrics/cluster-view";
import { observeHttpRequest } from "@/lib/metrics/gateway-metrics";

const count = Number(process.argv[2]);
for (let request = 0; request < count; request += 1) observeHttpRequest("/api/v1/payments/intents", "POST", 201, 0.02);
await publishMetricsSnapshot(await getDb());
const publisher = startMetricsPublisher(getDb);
console.log("published");
process.on("SIGTERM", () => {
  void publisher
    .stop()
    .then(closeDatabase)
    .then(() => process.exit(0));
});
setInterval(() => {}, 60_000);
