// Next.js calls register() once per server process: mount the sandbox's simulators there (a
// production process never loads their code), start the background jobs in one process per
// gateway (`npm start` gives that role to one of its servers, GATEWAY_JOB_RUNNER=1), and hand
// server/serve.mjs the hook that stops them and closes the database on shutdown.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  // server/serve.mjs waits on this before it listens: Next.js runs register() in the background
  // of its preparation, and the API lane's requests, which Next.js does not hold back, need the mount.
  const registered = (globalThis as { gatewayRegistered?: { resolve(): void; reject(error: unknown): void } })
    .gatewayRegistered;
  try {
    const { closeDatabase, getDb } = await import("./lib/db/client");
    let stopJobs = async () => {};
    const { getConfig } = await import("./lib/config");
    const config = getConfig();
    // Traces only when an OTEL_* exporter is set: otherwise no OpenTelemetry code is loaded.
    const tracing = config.tracesOn ? await import("./lib/tracing/start-tracing") : null;
    await tracing?.startTracing({ db: await getDb() });
    // This process's counts for GET /api/metrics's view of every process (with METRICS_TOKEN set).
    const publisher = (await import("./lib/metrics/cluster-view")).startMetricsPublisher(getDb);
    // server/serve.mjs reports each page answer here: its log line and its metrics.
    (globalThis as { gatewayObservePage?: unknown }).gatewayObservePage = (
      await import("./lib/hosted/log-page-request")
    ).observePageAnswer;
    // And, with traces on, serves each page in a span of its own.
    if (tracing)
      (globalThis as { gatewayTracePage?: unknown }).gatewayTracePage = (
        await import("./lib/hosted/trace-page")
      ).tracePageRequest;
    if (config.isSandbox) {
      const { mountSimulators } = await import("./mount-simulators");
      mountSimulators();
    }
    if (config.GATEWAY_BACKGROUND_JOBS === "on" && config.GATEWAY_JOB_RUNNER !== "0") {
      const { startBackgroundJobs } = await import("./lib/jobs/background-jobs");
      const { gatewayJobs } = await import("./lib/jobs/gateway-jobs");
      const running = startBackgroundJobs(gatewayJobs);
      stopJobs = () => running.stop();
    }
    (globalThis as { gatewayShutdown?: () => Promise<void> }).gatewayShutdown = async () => {
      await stopJobs();
      await publisher.stop();
      await tracing?.stopTracing();
      await closeDatabase();
    };
    registered?.resolve();
  } catch (error) {
    registered?.reject(error);
    throw error;
  }
}
