import { beforeAll } from "vitest";

// Every test file: quiet logs. DATABASE_URL comes from the global setup (PostgreSQL).
process.env.LOG_LEVEL ??= "silent";

// The suite runs a sandbox gateway in its process: mount its simulators as instrumentation.ts
// does. In a hook, not at import: importing the mount loads the gateway's modules, and a test
// file's vi.mock (of lib/log, say) must be registered before they load.
beforeAll(async () => {
  const { mountSimulators } = await import("../../mount-simulators");
  mountSimulators();
});
