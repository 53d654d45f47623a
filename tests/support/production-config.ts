import { parseConfig } from "@/lib/config";

/**
 * Runs `body` while getConfig() answers a production configuration (the sandbox's own routes
 * must not exist there), then puts the test run's sandbox configuration back.
 */
export async function inProduction<T>(body: () => Promise<T>): Promise<T> {
  const holder = globalThis as unknown as { gatewayConfig?: ReturnType<typeof parseConfig> };
  const sandbox = holder.gatewayConfig;
  holder.gatewayConfig = parseConfig({
    APP_ENV: "production",
    DATABASE_URL: "postgres://prod.invalid/db",
    GATEWAY_SECRET: "x".repeat(44),
    PUBLIC_BASE_URL: "https://pay.example",
    WALLET_PROVIDER_URL: "https://wallet.example",
    WALLET_PROVIDER_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  });
  try {
    return await body();
  } finally {
    holder.gatewayConfig = sandbox;
  }
}
