// A gateway server process as far as the metrics go, for tests/integration/metrics.test.ts: it
// answers `count` creates (as the lane counts them), publishes its snapshot as a server does
// (startMetricsPublisher), and exits. Usage: node --import tsx tests/support/metrics-process.ts <count>
import { closeDatabase, getDb } from "@/lib/db/client";
import { startMetricsPublisher } from "@/lib/metrics/cluster-view";
import { observeHttpRequest } from "@/lib/metrics/gateway-metrics";

const count = Number(process.argv[2]);
for (let request = 0; request < count; request += 1) observeHttpRequest("/api/v1/payments/intents", "POST", 201, 0.02);
const publisher = startMetricsPublisher(getDb);
await publisher.stop();
await closeDatabase();
console.log("published");
