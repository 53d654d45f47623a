import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig } from "@/lib/config";

const PRODUCTION_READY = {
  APP_ENV: "production",
  DATABASE_URL: "postgres://gateway@db.internal:5432/gateway",
  GATEWAY_SECRET: Buffer.alloc(32, 7).toString("base64"),
  PUBLIC_BASE_URL: "https://pay.example.com",
  WALLET_PROVIDER_URL: "https://wallet.example.com/api",
  WALLET_PROVIDER_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  CARD_PROVIDER_SECRET_KEY: "card-key",
};

function configError(env: Record<string, string | undefined>): string {
  try {
    parseConfig(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error("expected parseConfig to refuse");
}

describe("parseConfig", () => {
  it("starts the sandbox on port 3000 with nothing set", () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      APP_ENV: "sandbox",
      PORT: 3000,
      isSandbox: true,
      publicBaseUrl: "http://localhost:3000",
    });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("derives the public base URL from PORT, or takes PUBLIC_BASE_URL without its trailing slash", () => {
    expect(parseConfig({ PORT: "8080" }).publicBaseUrl).toBe("http://localhost:8080");
    expect(parseConfig({ PUBLIC_BASE_URL: "https://pay.example.com/" }).publicBaseUrl).toBe("https://pay.example.com");
  });

  it("treats an empty variable as unset", () => {
    const config = parseConfig({ PORT: "", DATABASE_URL: "" });
    expect(config.PORT).toBe(3000);
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("stops on each bad setting with a message naming it", () => {
    const cases: [Record<string, string>, string][] = [
      [{ PORT: "abc" }, "PORT"],
      [{ PORT: "70000" }, "PORT"],
      [{ APP_ENV: "staging" }, "APP_ENV"],
      [{ DATABASE_URL: "mysql://localhost/db" }, "DATABASE_URL: must be a postgres:// URL"],
      [{ PUBLIC_BASE_URL: "ftp://example.com" }, "PUBLIC_BASE_URL"],
      [{ GATEWAY_SECRET: "short" }, "GATEWAY_SECRET: must be at least 32 bytes of base64"],
      [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
      [{ REDIS_URL: "http://cache" }, "REDIS_URL: must be a redis:// URL"],
      [{ DATABASE_POOL_SIZE: "0" }, "DATABASE_POOL_SIZE"],
      [{ DATABASE_POOL_SIZE: "ten" }, "DATABASE_POOL_SIZE"],
      [{ DATABASE_START_WAIT_SECONDS: "-1" }, "DATABASE_START_WAIT_SECONDS"],
      [{ DATABASE_START_WAIT_SECONDS: "a minute" }, "DATABASE_START_WAIT_SECONDS"],
    ];
    for (const [env, expected] of cases) {
      const message = configError(env);
      expect(message, JSON.stringify(env)).toContain("Invalid configuration");
      expect(message).toContain(expected);
    }
  });

  it("lists every bad setting at once", () => {
    const message = configError({ PORT: "abc", APP_ENV: "staging" });
    expect(message).toContain("PORT");
    expect(message).toContain("APP_ENV");
  });

  it("never repeats a setting's value in the message, which may hold a password", () => {
    expect(configError({ DATABASE_URL: "mysql://admin:hunter2@db/gateway" })).not.toContain("hunter2");
  });

  it("refuses production without each of its required settings, naming every missing one", () => {
    const message = configError({ APP_ENV: "production" });
    for (const key of Object.keys(PRODUCTION_READY).filter((key) => key !== "APP_ENV")) {
      expect(message).toContain(`${key}: is required when APP_ENV=production`);
    }
    for (const key of Object.keys(PRODUCTION_READY).filter((key) => key !== "APP_ENV")) {
      const message = configError({ ...PRODUCTION_READY, [key]: undefined });
      expect(message, key).toContain(`${key}: is required when APP_ENV=production`);
    }
  });

  it("starts production when every required setting is given", () => {
    const config = parseConfig(PRODUCTION_READY);
    expect(config).toMatchObject({ APP_ENV: "production", isSandbox: false, publicBaseUrl: "https://pay.example.com" });
  });
});
