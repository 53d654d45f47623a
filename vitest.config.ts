import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/setup-env.ts"],
    pool: "forks",
    // Two files at a time, each worker on a database of its own (tests/support/worker-database.ts):
    // one file at a time left a third of the 2 cores idle (waiting on PostgreSQL, on spawned
    // gateways and CLIs, on timers). Spawned gateways build the bundle once, under a lock
    // (tests/support/spawned-gateway.ts).
    maxWorkers: 2,
    // next-intl imports `next/server` without an extension, which only a bundler resolves.
    server: { deps: { inline: ["next-intl"] } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
