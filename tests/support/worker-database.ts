/**
 * Test files run in parallel workers (vitest.config.ts), each worker on a database of its own:
 * webhook delivery, the expiry and release sweeps and the gateways some files start with their
 * background jobs act on every merchant of their database, so two files must never share one
 * at the same time. Files of one worker run one after another, as the whole suite once did.
 *
 * Worker 1 uses the suite's DATABASE_URL itself; worker N > 1 its sibling `<name>_w<N>`.
 */
export function workerDatabaseUrl(suiteUrl: string, poolId: number): string {
  if (poolId <= 1) return suiteUrl;
  const url = new URL(suiteUrl);
  url.pathname = `${url.pathname}_w${poolId}`;
  return url.toString();
}

/** Every worker's database, for the global setup to create and the teardown to audit. */
export function allWorkerDatabaseUrls(suiteUrl: string, workers: number): string[] {
  return Array.from({ length: Math.max(1, workers) }, (_, index) => workerDatabaseUrl(suiteUrl, index + 1));
}
