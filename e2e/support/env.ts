// One place for the addresses the suite and its server share.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = process.env.E2E_BASE_URL ?? `http://localhost:${E2E_PORT}`;
export const E2E_DATABASE_URL = process.env.E2E_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/gw_e2e";
/**
 * Debian's old headless shell (scripts/ensure-test-prerequisites.mjs installs it): the same Blink, a third less
 * CPU than the full browser headless.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium-headless-shell";
/** The sandbox wallet's code (contract 9). */
export const SANDBOX_OTP = "123456";
