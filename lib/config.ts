import { availableParallelism } from "node:os";
import { z } from "zod";

// Read once per process: a bad setting must stop the start, not surface mid-payment.
const configSchema = z
  .object({
    APP_ENV: z.enum(["sandbox", "production"]).default("sandbox"),
    PORT: z.coerce.number().int().min(1).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL").optional(),
    // PostgreSQL connections per gateway process.
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
    // How long the worker and `npm start` wait at start for a database that cannot be reached
    // (restarting, failing over) before they give up; 0 gives up at once.
    DATABASE_START_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
    PGLITE_DIR: z.string().min(1).default(".data/pglite"),
    REDIS_URL: z.string().regex(/^rediss?:\/\//, "must be a redis:// URL").optional(),
    // 32+ random bytes, base64. Derives client secrets and page tokens, encrypts webhook secrets.
    GATEWAY_SECRET: z.string().min(43, "must be at least 32 bytes of base64").optional(),
    // Serving processes of `npm start` (one per core by default); the embedded database admits one.
    WEB_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(() => availableParallelism()),
    // How long a stopping process waits for requests and deliveries in flight before it exits anyway.
    GATEWAY_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(25_000),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    // Real provider settings; production refuses to start without them.
    // The wallet service (docs/wallet-protocol.openapi.yaml): its base URL and the Standard
    // Webhooks secret both sides sign with. The sandbox serves its own wallet without them.
    WALLET_PROVIDER_URL: z.url({ protocol: /^https?$/ }).optional(),
    WALLET_PROVIDER_SECRET: z
      .string()
      .regex(/^whsec_[A-Za-z0-9+/]{32,}={0,2}$/, "must be a Standard Webhooks secret: whsec_ and 24+ bytes of base64")
      .optional(),
    // How long one wallet call may take before its outcome counts as unknown.
    WALLET_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
    CARD_PROVIDER_SECRET_KEY: z.string().min(1).optional(),
    // Where the Stripe adapter sends its requests: unset is Stripe itself (api.stripe.com) in
    // production; in the sandbox, setting it runs the Stripe adapter against that simulator.
    CARD_PROVIDER_API_URL: z.url().optional(),
    // Seconds to wait before each webhook retry (the first attempt is immediate); when the
    // last one fails too, the notification is abandoned. Tests shorten it.
    WEBHOOK_RETRY_SCHEDULE: z
      .string()
      .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, "must be comma-separated seconds, e.g. 5,300,1800")
      .default("5,300,1800,7200,18000,36000,36000")
      .transform((list) => list.split(",").map(Number)),
  })
  .superRefine((env, ctx) => {
    if (env.APP_ENV !== "production") return;
    for (const key of [
      "DATABASE_URL",
      "GATEWAY_SECRET",
      "PUBLIC_BASE_URL",
      "WALLET_PROVIDER_URL",
      "WALLET_PROVIDER_SECRET",
      "CARD_PROVIDER_SECRET_KEY",
    ] as const) {
      if (!env[key]) ctx.addIssue({ code: "custom", path: [key], message: "is required when APP_ENV=production" });
    }
    // Contract section 7: retries go on for at least 24 hours.
    if (env.WEBHOOK_RETRY_SCHEDULE.reduce((sum, seconds) => sum + seconds, 0) < 86_400) {
      ctx.addIssue({ code: "custom", path: ["WEBHOOK_RETRY_SCHEDULE"], message: "must span at least 24 hours in production" });
    }
  });

export type Config = z.infer<typeof configSchema> & { publicBaseUrl: string; isSandbox: boolean };

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(env)"}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const parsed = result.data;
  return {
    ...parsed,
    publicBaseUrl: (parsed.PUBLIC_BASE_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, ""),
    isSandbox: parsed.APP_ENV === "sandbox",
  };
}

const globalForConfig = globalThis as unknown as { gatewayConfig?: Config };

export function getConfig(): Config {
  globalForConfig.gatewayConfig ??= parseConfig(process.env);
  return globalForConfig.gatewayConfig;
}
