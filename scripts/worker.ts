// `npm run worker [-- --only <job> ...]`: the background jobs (webhook delivery, sweeps) without
// the web server. Any number of workers may share one PostgreSQL; each claims its own work.
import { parseArgs } from "node:util";
import { getConfig } from "../lib/config";
import { closeDatabase, getDb } from "../lib/db/client";
import { startMetricsPublisher } from "../lib/metrics/cluster-view";
import { openDatabaseWhenReachable } from "../lib/db/open-when-reachable";
import { startBackgroundJobs } from "../lib/jobs/background-jobs";
import { gatewayJobs } from "../lib/jobs/gateway-jobs";
import { HelpRequested, runCli, UsageError } from "./lib/cli";

const USAGE = `Usage: npm run worker [-- --only <job> ...]
  Runs the background jobs without the web server. Jobs: ${gatewayJobs.map((job) => job.name).join(", ")}`;

async function main() {
  const { values } = parseArgs({
    options: { only: { type: "string", multiple: true }, help: { type: "boolean", short: "h", default: false } },
  });
  if (values.help) throw new HelpRequested(USAGE);
  const config = getConfig();
  const only = values.only;
  const unknown = (only ?? []).filter((name) => !gatewayJobs.some((job) => job.name === name));
  if (unknown.length > 0) {
    throw new UsageError(`Unknown job ${unknown.join(", ")}; jobs: ${gatewayJobs.map((job) => job.name).join(", ")}`);
  }
  const jobs = only ? gatewayJobs.filter((job) => only.includes(job.name)) : gatewayJobs;

  // Opens (and migrates) the database before announcing readiness: a bad URL fails here, a
  // database that is down is waited for (DATABASE_START_WAIT_SECONDS).
  const { driver } = await openDatabaseWhenReachable();
  // The jobs of a sandbox reach the simulators it hosts (the card simulator's event retries, the
  // wallet's answers to reconciliation), as the server's do; production never loads them.
  if (config.isSandbox) (await import("../mount-simulators")).mountSimulators();
  const tracing = config.tracesOn ? await import("../lib/tracing/start-tracing") : null;
  await tracing?.startTracing({ db: await getDb() });
  const publisher = startMetricsPublisher(getDb);
  const running = startBackgroundJobs(jobs);
  console.log(`Worker (${config.APP_ENV}, ${driver}) running: ${jobs.map((job) => job.name).join(", ")}`);

  // A stop lets deliveries in flight finish and record their results (at most the 10 s timeout).
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      void running
        .stop()
        .then(() => publisher.stop())
        .then(() => tracing?.stopTracing())
        .then(closeDatabase)
        .then(() => process.exit(0));
    });
  }
}

runCli(main, { usage: USAGE });
