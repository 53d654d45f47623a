import { beforeAll } from "vitest";
import { workerDatabaseUrl } from "./worker-database";

// Every test file: quiet logs, and this worker's database (tests/support/worker-database.ts),
// derived from the suite's one the global setup recreated.
process.env.LOG_LEVEL ??= "silent";
if (process.env.SUITE_DATABASE_URL)
  process.env.DATABASE_URL = workerDatabaseUrl(process.env.SUITE_DATABASE_URL, Number(process.env.VITEST_POOL_ID ?? 1));

// The suite runs a sandbox gateway in its process: mount its simulators as instrumentation.ts
// does. In a hook, not at import: importing the mount loads the gateway's modules, and a test
// file's vi.mock (of lib/log, say) must be registered before they load.
// Unit tests start no gateway and reach no provider: they skip it (loading the simulators and the
// payment core they call back into costs a second of CPU, in every one of 49 files).
beforeAll(async ({}, suite) => {
  if (suite.file.filepath.includes("/tests/unit/")) return;
  const { mountSimulators } = await import("../../mount-simulators");
  mountSimulators();
});
