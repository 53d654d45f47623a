import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/support/global-setup.ts"],
    setupFiles: ["tests/support/setup-env.ts"],
    pool: "forks",
    // Vitest's default on 2 cores is one worker. Most of the suite waits (on PostgreSQL, on
    // spawned gateways and CLIs, on timers), so three files at a time nearly halve its wall time;
    // each file works on merchants of its own (tests/support/spawned-gateway.ts builds once).
    maxWorkers: 3,
    // next-intl imports `next/server` without an extension, which only a bundler resolves.
    server: { deps: { inline: ["next-intl"] } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
