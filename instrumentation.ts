// Next.js calls register() once per server process: start the background jobs there.
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  if (process.env.GATEWAY_BACKGROUND_JOBS === "off") return;
  const { startBackgroundJobs } = await import("./lib/server/background-jobs");
  const { gatewayJobs } = await import("./lib/server/jobs");
  startBackgroundJobs(gatewayJobs);
}
