import { afterEach, describe, expect, it, vi } from "vitest";
import { parseConfig } from "@/lib/config";

const holder = globalThis as unknown as { gatewayConfig?: ReturnType<typeof parseConfig> };
const saved = holder.gatewayConfig;

// The API's headers are computed once per process: each case loads them under its configuration.
async function apiHeadersUnder(env: Record<string, string>) {
  vi.resetModules();
  holder.gatewayConfig = parseConfig(env);
  const { apiResponseHeaders } = await import("@/lib/http/api-headers");
  return new Map(apiResponseHeaders());
}

const production = {
  APP_ENV: "production",
  DATABASE_URL: "postgres://gateway@db.internal/gateway",
  GATEWAY_SECRET: Buffer.alloc(32, 7).toString("base64"),
  WALLET_PROVIDER_URL: "https://wallet.example",
  WALLET_PROVIDER_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
};

describe("Strict-Transport-Security on the API's answers", () => {
  afterEach(() => {
    holder.gatewayConfig = saved;
    vi.resetModules();
  });

  it("is sent when buyers reach the gateway over https: an https address, or TLS ended by a proxy", async () => {
    const https = await apiHeadersUnder({ ...production, PUBLIC_BASE_URL: "https://pay.example" });
    expect(https.get("Strict-Transport-Security")).toBe("max-age=63072000; includeSubDomains");
    const behindProxy = await apiHeadersUnder({
      ...production,
      PUBLIC_BASE_URL: "http://pay.internal",
      TLS_TERMINATED_BY_PROXY: "true",
    });
    expect(behindProxy.get("Strict-Transport-Security")).toBe("max-age=63072000; includeSubDomains");
  });

  it("is not sent by a sandbox on plain http (it would pin localhost to https)", async () => {
    const sandbox = await apiHeadersUnder({ PUBLIC_BASE_URL: "http://localhost:3000" });
    expect(sandbox.has("Strict-Transport-Security")).toBe(false);
  });
});
