import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { z } from "zod";
import { METHOD_SETTINGS } from "./payment-methods/declarations/method-declarations";
import { portSetting } from "./validation/setting-schemas";

// Read once per process: a bad setting must stop the start, not surface mid-payment.
const onOff = z.enum(["on", "off"]);
const port = portSetting;

/**
 * Every variable the gateway and its processes read (docs/configuration.md lists exactly these;
 * tests/unit/configuration-docs.test.ts compares the two). Nothing else reads process.env for
 * configuration.
 */
const configSchema = z
  .object({
    APP_ENV: z.enum(["sandbox", "production"]).default("sandbox"),
    PORT: port.default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    // A proxy in front of the gateway takes the buyers' https and forwards plain http: production
    // then accepts an http:// PUBLIC_BASE_URL and the gateway sends HSTS on every answer.
    TLS_TERMINATED_BY_PROXY: z
      .enum(["true", "false"])
      .default("false")
      .transform((value) => value === "true"),
    // The proxies whose forwarded headers are believed: addresses and CIDR ranges. Only a request
    // whose TCP peer is one of them has its client's address and scheme read from X-Forwarded-For
    // and X-Forwarded-Proto (or Forwarded); any other's are the client's own words, ignored
    // (lib/http/client-address.ts).
    TRUSTED_PROXIES: z
      .string()
      .default("")
      .transform((list) =>
        list
          .split(",")
          .map((entry) => entry.trim())
          .filter(Boolean),
      )
      .refine(
        (entries) => entries.every(isAddressOrRange),
        "must be comma-separated IP addresses or CIDR ranges, e.g. 10.0.0.5,192.168.0.0/16",
      ),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
    // PostgreSQL connections per gateway process.
    DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
    // How long the worker and `npm start` wait at start for a database that cannot be reached
    // (restarting, failing over) before they give up; 0 gives up at once.
    DATABASE_START_WAIT_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
    PGLITE_DIR: z.string().min(1).default(".data/pglite"),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, "must be a redis:// URL")
      .optional(),
    // Where console invitations are emailed from (smtp:// or smtps://, credentials in the URL);
    // unset, nothing is emailed and the Team page's link is the only copy.
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, "must be an smtp:// or smtps:// URL")
      .optional(),
    SMTP_FROM: z.string().min(3).max(254).optional(),
    // 32+ random bytes, base64. Derives client secrets and page tokens, encrypts webhook secrets.
    // Node's base64 decoder skips what is not base64: a passphrase of 43+ characters would pass
    // a length check yet give a short key (none at all for "!!!..."), and two such secrets the
    // same key and the same database seal. So the text must be base64, and its bytes 32+.
    GATEWAY_SECRET: z
      .string()
      .regex(/^[A-Za-z0-9+/_-]+={0,2}$/, "must be at least 32 bytes of base64")
      .refine((secret) => Buffer.from(secret, "base64").length >= 32, "must be at least 32 bytes of base64")
      .optional(),
    // Serving processes of `npm start` (one per core by default); the embedded database admits one.
    WEB_CONCURRENCY: z.coerce
      .number()
      .int()
      .min(1)
      .max(256)
      .default(() => availableParallelism()),
    // How long a stopping process waits for requests and deliveries in flight before it exits anyway.
    GATEWAY_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(25_000),
    GATEWAY_HEAP_GROWTH_PERCENT: z.coerce.number().int().min(0).max(1000).default(100),
    GATEWAY_BACKGROUND_JOBS: onOff.default("on"),
    // Another build of the lanes' bundle (the API and console lanes), to pair two lane builds on one Next.js
    // build in benchmarks.
    GATEWAY_LANES_BUNDLE: z.string().min(1).default(".lanes/lanes.mjs"),
    // Set by `npm start` on each of its servers: "1" on the one that runs the background jobs.
    GATEWAY_JOB_RUNNER: z.enum(["0", "1"]).optional(),
    // Unset: on outside NODE_ENV=production (tests, development), off in production.
    GATEWAY_TRANSACTION_GUARD: onOff.optional(),
    LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
    // GET /api/metrics answers only `Authorization: Bearer <METRICS_TOKEN>`; unset, it does not exist (404).
    METRICS_TOKEN: z.string().min(32, "must be at least 32 characters (e.g. openssl rand -hex 32)").optional(),
    // Traces (OpenTelemetry) are sent only when one of these is set; the SDK reads them, and its other OTEL_*
    // variables, itself.
    OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    OTEL_TRACES_EXPORTER: z.string().min(1).optional(),
    OTEL_SDK_DISABLED: z.enum(["true", "false"]).optional(),
    OTEL_SERVICE_NAME: z.string().min(1).default("payment-gateway"),
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
    // The provider-operation boundary's bound on any provider call (lib/provider-operations).
    PROVIDER_CALL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    // The audit's bound on how long an operation may stay unknown before it is a violation.
    PROVIDER_RECONCILIATION_BOUND_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
    // Where the Stripe adapter sends its requests: unset is Stripe itself (api.stripe.com) in
    // production; in the sandbox, setting it runs the Stripe adapter against that simulator.
    CARD_PROVIDER_API_URL: z.url({ protocol: /^https?$/ }).optional(),
    // Read by `npm run merchant -- card-keys` only, so the secrets stay off the command line.
    STRIPE_SECRET_KEY: z.string().min(1).optional(),
    STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
    // Seconds to wait before each webhook retry (the first attempt is immediate); when the
    // last one fails too, the notification is abandoned. Tests shorten it.
    WEBHOOK_RETRY_SCHEDULE: z
      .string()
      .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, "must be comma-separated seconds, e.g. 5,300,1800")
      .default("5,300,1800,7200,18000,36000,36000")
      .transform((list) => list.split(",").map(Number)),
    // `npm run wallet-sandbox`: the sandbox wallet as an operator of its own.
    WALLET_SANDBOX_PORT: port.default(4000),
    WALLET_SANDBOX_HOST: z.string().min(1).default("127.0.0.1"),
    WALLET_SANDBOX_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    WALLET_SANDBOX_DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
    WALLET_SANDBOX_PGLITE_DIR: z.string().min(1).default(".data/wallet-sandbox"),
    // `npm run card-simulator`: the Stripe simulator as a process of its own.
    CARD_SIMULATOR_PORT: port.default(4100),
    CARD_SIMULATOR_HOST: z.string().min(1).default("127.0.0.1"),
    CARD_SIMULATOR_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
    CARD_SIMULATOR_DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, "must be a postgres:// URL")
      .optional(),
    CARD_SIMULATOR_PGLITE_DIR: z.string().min(1).default(".data/card-simulator"),
    // Each payment method's own variables (its URL, the CLI's secrets, its simulator process),
    // declared in its folder (lib/payment-methods/<method>/declaration).
    ...METHOD_SETTINGS,
  })
  .superRefine((env, ctx) => {
    if (env.APP_ENV !== "production") return;
    for (const key of [
      "DATABASE_URL",
      "GATEWAY_SECRET",
      "PUBLIC_BASE_URL",
      "WALLET_PROVIDER_URL",
      "WALLET_PROVIDER_SECRET",
    ] as const) {
      if (!env[key]) ctx.addIssue({ code: "custom", path: [key], message: "is required when APP_ENV=production" });
    }
    // Buyers type card details and codes on the hosted pages: their address is https, ended
    // either by the gateway's own front or by a proxy that says so.
    if (env.PUBLIC_BASE_URL?.startsWith("http:") && !env.TLS_TERMINATED_BY_PROXY) {
      ctx.addIssue({
        code: "custom",
        path: ["PUBLIC_BASE_URL"],
        message:
          "must be https:// in production (set TLS_TERMINATED_BY_PROXY=true when a proxy in front of the gateway " +
          "ends TLS)",
      });
    }
    // Contract section 7: retries go on for at least 24 hours.
    if (env.WEBHOOK_RETRY_SCHEDULE.reduce((sum, seconds) => sum + seconds, 0) < 86_400) {
      ctx.addIssue({
        code: "custom",
        path: ["WEBHOOK_RETRY_SCHEDULE"],
        message: "must span at least 24 hours in production",
      });
    }
  });

/** "10.0.0.5", "2001:db8::1", "192.168.0.0/16", "fd00::/8": an address, or a network with its prefix length. */
function isAddressOrRange(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** The names of every variable the configuration reads, for the docs' test. */
export const CONFIGURATION_VARIABLES: readonly string[] = Object.keys(configSchema.shape);

export type Config = z.infer<typeof configSchema> & {
  publicBaseUrl: string;
  isSandbox: boolean;
  /** HSTS on every answer: the buyers reach the gateway over https. */
  sendsHsts: boolean;
  /** Whether APP_ENV was given, rather than defaulted (the merchant CLI then takes the database's). */
  appEnvGiven: boolean;
  /** OpenTelemetry traces are on: an exporter is named and the SDK is not disabled (lib/tracing). */
  tracesOn: boolean;
};

export class ConfigError extends Error {
  constructor(
    message: string,
    /** The variables at fault, each once. */
    readonly variables: readonly string[] = [],
  ) {
    super(message);
  }
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ""));
  const result = configSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".") || "(env)"}: ${issue.message}`);
    const variables = [...new Set(result.error.issues.map((issue) => String(issue.path[0] ?? "(env)")))];
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`, variables);
  }
  const parsed = result.data;
  const publicBaseUrl = (parsed.PUBLIC_BASE_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, "");
  return {
    ...parsed,
    publicBaseUrl,
    isSandbox: parsed.APP_ENV === "sandbox",
    sendsHsts: publicBaseUrl.startsWith("https:") || parsed.TLS_TERMINATED_BY_PROXY,
    appEnvGiven: cleaned.APP_ENV !== undefined,
    tracesOn:
      parsed.OTEL_SDK_DISABLED !== "true" &&
      (parsed.OTEL_TRACES_EXPORTER !== undefined
        ? parsed.OTEL_TRACES_EXPORTER !== "none"
        : Boolean(parsed.OTEL_EXPORTER_OTLP_ENDPOINT ?? parsed.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT)),
  };
}

const globalForConfig = globalThis as unknown as { gatewayConfig?: Config };

export function getConfig(): Config {
  globalForConfig.gatewayConfig ??= parseConfig(process.env);
  return globalForConfig.gatewayConfig;
}

/**
 * The configuration as it stands, without settling it: for what is read at import (the log
 * level, the transaction guard), before a process (or a test harness) has set its environment.
 */
export function peekConfig(): Config {
  return globalForConfig.gatewayConfig ?? parseConfig(process.env);
}

/**
 * The merchant CLI run without APP_ENV takes the environment its database was sealed with
 * (lib/db/database-seal.ts): the settings are validated again as that environment's.
 */
export function adoptEnvironment(environment: Config["APP_ENV"]): Config {
  try {
    globalForConfig.gatewayConfig = parseConfig({ ...process.env, APP_ENV: environment });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(
      `This is a ${environment} database: run with its gateway's settings ` +
        `(${error.variables.join(", ")} missing or invalid for APP_ENV=${environment}).`,
      error.variables,
    );
  }
  return globalForConfig.gatewayConfig;
}
