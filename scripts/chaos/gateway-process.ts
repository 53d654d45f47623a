// One gateway process of `npm run chaos`: the real route handlers (app/api/**/route.ts) over
// HTTP on CHAOS_PORT, on DATABASE_URL, without background jobs (the chaos worker runs them).
// The chaos run kills it with SIGKILL and starts it again. No Next.js here, so no
// instrumentation.ts: it mounts the sandbox's simulators itself, as instrumentation does.
// It publishes its metrics as a server does (METRICS_TOKEN is set by the run).
import { getDatabase, getDb } from "../../lib/db/client";
import { startMetricsPublisher } from "../../lib/metrics/cluster-view";
import { mountSimulators } from "../../mount-simulators";
import { startTestGateway } from "../../tests/support/gateway-server";

mountSimulators();

const port = Number(process.env.CHAOS_PORT);
// Retried until the database answers: a process restarted during the database restart waits.
for (;;) {
  try {
    await getDatabase();
    break;
  } catch {
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
const gateway = await startTestGateway({ port });
// Its counts in GET /api/metrics's view of every process, as a server's (METRICS_TOKEN is set).
startMetricsPublisher(getDb);
console.log(`gateway ${process.pid} on ${gateway.baseUrl}`);
