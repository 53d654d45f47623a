import { existsSync, readFileSync } from "node:fs";
import type { FullConfig } from "@playwright/test";
import { SANDBOX_OTP } from "./env";
import { startMerchantSite } from "./merchant-site";
import { onboardMerchant } from "./onboard";

/**
 * Runs once the gateway is up: the merchant's website, and the merchants the journeys pay.
 * Journeys that move the sandbox clock get a merchant each, since the clock is per service.
 * Workers read what this sets from the environment they inherit.
 */
export default async function globalSetup(_config: FullConfig) {
  const site = await startMerchantSite();
  const redirectUrl = `${site.origin}/orders/return`;
  const [shared, expiry, expiryUnswept, resend, noRedirect, clockNoScript] = await Promise.all([
    onboardMerchant({ name: "Souk Atlas", redirectUrl, origins: [site.origin] }),
    onboardMerchant({ name: "Clock Shop Expiry", redirectUrl, origins: [site.origin] }),
    // Each test that moves a service's clock has a service of its own: tests run in parallel.
    onboardMerchant({ name: "Clock Shop Unswept", redirectUrl, origins: [site.origin] }),
    onboardMerchant({ name: "Clock Shop Resend", redirectUrl, origins: [site.origin] }),
    // No redirect URL and no origin: the return page has nowhere to send the buyer.
    onboardMerchant({ name: "Kiosk Sans Retour" }),
    // The journeys without JavaScript move the clock too.
    onboardMerchant({ name: "Clock Shop No Script", redirectUrl, origins: [site.origin] }),
  ]);
  process.env.E2E_MERCHANT_SITE = site.origin;
  process.env.E2E_MERCHANTS = JSON.stringify({ shared, expiry, expiryUnswept, resend, noRedirect, clockNoScript });
  return async () => {
    await site.close();
    assertCodeNeverLogged();
  };
}

/** After every journey typed the sandbox code many times: the server never wrote it down. */
function assertCodeNeverLogged() {
  const file = process.env.E2E_SERVER_LOG;
  if (!file || !existsSync(file)) return; // a server started outside the run: nothing to scan
  const log = readFileSync(file, "utf8");
  // Not inside a longer hex or digit run (ids and tokens may contain the digits by chance).
  const leak = new RegExp(`(?<![0-9a-f])${SANDBOX_OTP}(?![0-9a-f])`, "i").exec(log);
  if (leak) {
    const context = log.slice(Math.max(0, leak.index - 120), leak.index + 120);
    throw new Error(`The server log contains the OTP code:\n${context}`);
  }
}
