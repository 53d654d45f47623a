import { describe, expect, it } from "vitest";
import { CONFIGURATION_VARIABLES, ConfigError, parseConfig } from "@/lib/config";

const PRODUCTION_READY = {
  APP_ENV: "production",
  DATABASE_URL: "postgres://gateway@db.internal:5432/gateway",
  GATEWAY_SECRET: Buffer.alloc(32, 7).toString("base64"),
  PUBLIC_BASE_URL: "https://pay.example.com",
  WALLET_PROVIDER_URL: "https://wallet.example.com/api",
  WALLET_PROVIDER_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
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
      // 43+ characters that are not base64 decode to nothing: no key, and one seal for all of them.
      [{ GATEWAY_SECRET: "!".repeat(44) }, "GATEWAY_SECRET: must be at least 32 bytes of base64"],
      [
        { GATEWAY_SECRET: "my production gateway secret, kept in the vault" },
        "GATEWAY_SECRET: must be at least 32 bytes of base64",
      ],
      [{ LOG_LEVEL: "loud" }, "LOG_LEVEL"],
      [{ REDIS_URL: "http://cache" }, "REDIS_URL: must be a redis:// URL"],
      [{ DATABASE_POOL_SIZE: "0" }, "DATABASE_POOL_SIZE"],
      [{ DATABASE_POOL_SIZE: "ten" }, "DATABASE_POOL_SIZE"],
      [{ DATABASE_START_WAIT_SECONDS: "-1" }, "DATABASE_START_WAIT_SECONDS"],
      [{ DATABASE_START_WAIT_SECONDS: "a minute" }, "DATABASE_START_WAIT_SECONDS"],
      [{ PROVIDER_CALL_TIMEOUT_MS: "soon" }, "PROVIDER_CALL_TIMEOUT_MS"],
      [{ PROVIDER_CALL_TIMEOUT_MS: "5" }, "PROVIDER_CALL_TIMEOUT_MS"],
      [{ CARD_PROVIDER_API_URL: "not a url" }, "CARD_PROVIDER_API_URL"],
      [{ WALLET_SANDBOX_HOST: "", WALLET_SANDBOX_PORT: "0" }, "WALLET_SANDBOX_PORT"],
      [{ WALLET_SANDBOX_PUBLIC_URL: "wallet.example" }, "WALLET_SANDBOX_PUBLIC_URL"],
      [{ CARD_SIMULATOR_PORT: "http" }, "CARD_SIMULATOR_PORT"],
      [{ GATEWAY_BACKGROUND_JOBS: "maybe" }, "GATEWAY_BACKGROUND_JOBS"],
      [{ TLS_TERMINATED_BY_PROXY: "yes" }, "TLS_TERMINATED_BY_PROXY"],
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

  it("refuses an http:// PUBLIC_BASE_URL in production unless a proxy in front ends TLS (then HSTS is on)", () => {
    expect(configError({ ...PRODUCTION_READY, PUBLIC_BASE_URL: "http://pay.example.com" })).toContain(
      "PUBLIC_BASE_URL: must be https:// in production " +
        "(set TLS_TERMINATED_BY_PROXY=true when a proxy in front of the gateway ends TLS)",
    );
    const behindProxy = parseConfig({
      ...PRODUCTION_READY,
      PUBLIC_BASE_URL: "http://pay.example.com",
      TLS_TERMINATED_BY_PROXY: "true",
    });
    expect(behindProxy).toMatchObject({ publicBaseUrl: "http://pay.example.com", sendsHsts: true });
    expect(parseConfig(PRODUCTION_READY).sendsHsts).toBe(true);
    // The sandbox on a laptop: plain http, no HSTS to pin localhost.
    expect(parseConfig({}).sendsHsts).toBe(false);
  });

  it("reads the provider time limit and the simulators' addresses from the one configuration", () => {
    expect(parseConfig({})).toMatchObject({
      PROVIDER_CALL_TIMEOUT_MS: 10_000,
      WALLET_SANDBOX_PORT: 4000,
      WALLET_SANDBOX_HOST: "127.0.0.1",
      CARD_SIMULATOR_PORT: 4100,
    });
    expect(
      parseConfig({ PROVIDER_CALL_TIMEOUT_MS: "3000", WALLET_SANDBOX_PUBLIC_URL: "https://wallet.test" }),
    ).toMatchObject({
      PROVIDER_CALL_TIMEOUT_MS: 3000,
      WALLET_SANDBOX_PUBLIC_URL: "https://wallet.test",
    });
  });

  it("no longer asks production for a card provider key: card keys are per merchant (merchant card-keys)", () => {
    expect(() => parseConfig(PRODUCTION_READY)).not.toThrow();
    expect(CONFIGURATION_VARIABLES).not.toContain("CARD_PROVIDER_SECRET_KEY");
  });

  it("tells whether APP_ENV was given or defaulted (the merchant CLI then takes the database's)", () => {
    expect(parseConfig({}).appEnvGiven).toBe(false);
    expect(parseConfig({ APP_ENV: "sandbox" }).appEnvGiven).toBe(true);
  });
});
