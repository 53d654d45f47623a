import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { BASE_URL, CHROMIUM_PATH, E2E_DATABASE_URL, E2E_PORT } from "./e2e/support/env";

// The server's output, kept so the run can prove no code or card number was ever logged.
process.env.E2E_SERVER_LOG ??= path.resolve("test-results/e2e-server.log");

/**
 * Real-browser journeys through the hosted pages, against the production build served by
 * `npm start` on a database recreated for the run. `npx playwright test` does it all.
 */
export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  fullyParallel: true,
  // Three browsers at a time on 2 cores: two left a tenth of the CPU idle (pages and servers
  // waiting on each other); three finish the suite in 322 s instead of 360 s.
  workers: 3,
  retries: process.env.CI ? 1 : 0,
  forbidOnly: Boolean(process.env.CI),
  timeout: 45_000,
  expect: { timeout: 8_000 },
  reporter: [["list"]],
  globalSetup: "./e2e/support/global-setup.ts",
  use: {
    ...devices["Desktop Chrome"],
    baseURL: BASE_URL,
    locale: "en-US",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: "npx tsx e2e/support/web-server.ts",
        url: `${BASE_URL}/en`,
        // A first run builds the production bundle (about 90 s on 2 cores) before serving.
        timeout: 300_000,
        reuseExistingServer: !process.env.CI,
        stdout: "ignore",
        stderr: "pipe",
        env: {
          DATABASE_URL: E2E_DATABASE_URL,
          E2E_DATABASE_URL,
          PORT: String(E2E_PORT),
          PUBLIC_BASE_URL: BASE_URL,
          APP_ENV: "sandbox",
          // Production leaves it off for speed; the browser flows run with it, so a provider call inside a
          // transaction fails them.
          GATEWAY_TRANSACTION_GUARD: "on",
          // Request logs included: the leak scan must see everything the server would log.
          LOG_LEVEL: "info",
          E2E_SERVER_LOG: process.env.E2E_SERVER_LOG,
        },
      },
});
