// One gateway process of `npm run chaos`: the real route handlers (app/api/**/route.ts) over
// HTTP on CHAOS_PORT, on DATABASE_URL, without background jobs (the chaos worker runs them).
// The chaos run kills it with SIGKILL and starts it again. No Next.js here, so no
// instrumentation.ts: it mounts the sandbox's simulators itself, as instrumentation does.
import { getDatabase } from "../../lib/db/client";
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
console.log(`gateway ${process.pid} on ${gateway.baseUrl}`);
