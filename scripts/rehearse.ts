// `npm run rehearse [-- --postgres postgres://user@host:5432/postgres] [--gateway-port N] [--wallet-port N]
// [--card-simulator-port N] [--database-prefix name]`: the production rehearsal
// of docs/going-live.md, offline, on this machine. It starts the card simulator, the wallet
// sandbox as the wallet operator, and the gateway with APP_ENV=production, each on a PostgreSQL
// database of its own that it creates and drops; onboards a merchant with the guide's commands;
// takes a wallet payment with its code, a reservation captured and refunded in part, a card
// payment and its refund (headless Chromium, Stripe's hosts routed to the simulator), and one
// wallet outage settled by reconciliation; then drains, stops the gateway, runs the audit and
// stops everything, printing each step with its outcome. The North African card rails, each
// provider's simulator a process of its own on a database of its own, the merchant's credentials
// set with the guide's commands: SATIM (SATIM_API_URL; one payment through the terms and the
// anti-bot check, refunded in part), ClicToPay (CLICTOPAY_API_URL; one payment refunded in part,
// one reservation captured in part), CMI (CMI_URL; the same) and Chargily Pay (CHARGILY_API_URL;
// one payment over HTTP settled by its webhook). Exit code 0 only when every step passed.
import { randomBytes, randomInt } from "node:crypto";
import { parseArgs } from "node:util";
import { recreateDatabase } from "./lib/recreate-database";
import { openRehearsalBrowser, type RehearsalBrowser } from "./rehearsal/browser";
import {
  runGuideCommand,
  serveGuideCommand,
  freePort,
  answers,
  guideJson,
  type Env,
  type Served,
} from "./rehearsal/processes";
import { startWebhookReceiver, type WebhookReceiver } from "./rehearsal/webhook-receiver";
import { rehearsePayments } from "./rehearsal/payment-steps";
import { step, summary } from "./rehearsal/steps";

// On a shared host, each option names what would otherwise be chosen for this run: a port
// (default: a free one) and the prefix of the three databases it creates and drops at the end
// (default: rehearsal_<pid>_<random>, so two runs never meet).
const { values } = parseArgs({
  options: {
    postgres: { type: "string", default: "postgres://postgres@127.0.0.1:5432/postgres" },
    "gateway-port": { type: "string" },
    "wallet-port": { type: "string" },
    "card-simulator-port": { type: "string" },
    "database-prefix": { type: "string" },
  },
});
const admin = new URL(values.postgres);
const prefix = values["database-prefix"] ?? `rehearsal_${process.pid}_${randomBytes(3).toString("hex")}`;
if (!/^[a-z_][a-z0-9_]{0,40}$/.test(prefix))
  throw new Error(
    `--database-prefix ${prefix}: use lower-case letters, digits and _ (at most 41), starting with a letter or _`,
  );

/** A port option's value, or a free port when it is not given. */
async function portOption(name: "gateway-port" | "wallet-port" | "card-simulator-port"): Promise<number> {
  const given = values[name];
  if (given === undefined) return freePort();
  const port = Number(given);
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new Error(`--${name} ${given}: a port from 1 to 65535`);
  return port;
}
const databaseUrl = (name: string) => Object.assign(new URL(admin.toString()), { pathname: `/${name}` }).toString();
const databases = {
  gateway: `${prefix}_gateway`,
  wallet: `${prefix}_wallet`,
  cards: `${prefix}_cards`,
  satim: `${prefix}_satim`,
  clictopay: `${prefix}_clictopay`,
  cmi: `${prefix}_cmi`,
  chargily: `${prefix}_chargily`,
};
// The merchant's terms of payment, linked on the page before SATIM's (SATIM's checklist).
const TERMS_URL = "https://shop.example/terms-of-payment";

const running: Served[] = [];
// Stopped and started again by the outage step.
let wallet: Served | undefined;
let browser: RehearsalBrowser | undefined;
let receiver: WebhookReceiver | undefined;

/**
 * A provider's simulator served by the guide's command until the rehearsal ends: what it prints as one JSON
 * line once `key` appears.
 */
async function servedSimulator<Printed>(
  command: Parameters<typeof serveGuideCommand>[0],
  env: Env,
  key: string,
): Promise<Printed> {
  const served = await serveGuideCommand(
    command,
    env,
    (output) => new RegExp(`^\\{.*"${key}"`, "m").test(output),
    120_000,
  );
  running.push(served);
  return JSON.parse(
    served
      .output()
      .split("\n")
      .find((line) => line.startsWith("{"))!,
  ) as Printed;
}

async function main() {
  const [gatewayPort, walletPort, cardPort] = [
    await portOption("gateway-port"),
    await portOption("wallet-port"),
    await portOption("card-simulator-port"),
  ];
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const walletUrl = `http://127.0.0.1:${walletPort}`;
  const cardUrl = `http://127.0.0.1:${cardPort}`;
  const cmiPort = await freePort();
  const cmiUrl = `http://127.0.0.1:${cmiPort}`;
  const walletSecret = `whsec_${randomBytes(32).toString("base64")}`;
  const postgresEnv: Env = {
    PGHOST: admin.hostname,
    PGPORT: admin.port || "5432",
    PGUSER: decodeURIComponent(admin.username || "postgres"),
  };

  await step("database", "createdb: the gateway's own PostgreSQL database", async () => {
    const created = await runGuideCommand("createDatabase", { ...postgresEnv, GATEWAY_DATABASE: databases.gateway });
    if (created.code !== 0) throw new Error(created.stderr);
    // The providers' databases: theirs, not the gateway's.
    const providers = Object.entries(databases).flatMap(([role, name]) => (role === "gateway" ? [] : [name]));
    for (const name of providers) await recreateDatabase(databaseUrl(name));
    return `${databases.gateway} (and ${providers.join(", ")} for the providers)`;
  });

  const cards = await step("card simulator", "npm run card-simulator: Stripe's stand-in, its keys", async () => {
    const env = {
      CARD_SIMULATOR_PORT: String(cardPort),
      CARD_SIMULATOR_DATABASE_URL: databaseUrl(databases.cards),
      PUBLIC_BASE_URL: gatewayUrl,
      LOG_LEVEL: "warn",
    };
    const keys = await servedSimulator<{ publishableKey: string; secretKey: string; webhookSecret: string }>(
      "cardSimulator",
      env,
      "secretKey",
    );
    return [keys, `${cardUrl}, publishable key ${keys.publishableKey}`] as const;
  });

  const satimPort = await freePort();
  const satim = await step(
    "SATIM simulator",
    "npm run simulator -- satim: SATIM ePay's stand-in (REST interface, payment page), its merchant",
    async () => {
      const env = {
        SATIM_SIMULATOR_PORT: String(satimPort),
        SATIM_SIMULATOR_DATABASE_URL: databaseUrl(databases.satim),
        LOG_LEVEL: "warn",
      };
      const printed = await servedSimulator<{ apiUrl: string; terminalId: string; userName: string; password: string }>(
        "satimSimulator",
        env,
        "terminalId",
      );
      return [printed, `${printed.apiUrl}, terminal ${printed.terminalId}`] as const;
    },
  );

  const clictopayPort = await freePort();
  const clictopay = await step(
    "ClicToPay simulator",
    "npm run simulator -- clictopay: ClicToPay's stand-in (REST interface, payment page), its API user",
    async () => {
      const env = {
        CLICTOPAY_SIMULATOR_PORT: String(clictopayPort),
        CLICTOPAY_SIMULATOR_DATABASE_URL: databaseUrl(databases.clictopay),
        LOG_LEVEL: "warn",
      };
      const printed = await servedSimulator<{ apiUrl: string; userName: string; password: string }>(
        "clictopaySimulator",
        env,
        "userName",
      );
      return [printed, `${printed.apiUrl}, API user ${printed.userName}`] as const;
    },
  );

  const cmi = await step(
    "CMI simulator",
    "npm run simulator -- cmi: CMI's stand-in (3D Pay Hosting, callbacks, API), its store",
    async () => {
      const env = {
        CMI_SIMULATOR_PORT: String(cmiPort),
        CMI_SIMULATOR_DATABASE_URL: databaseUrl(databases.cmi),
        LOG_LEVEL: "warn",
      };
      const store = await servedSimulator<{
        cmiUrl: string;
        clientId: string;
        storeKey: string;
        apiUser: string;
        apiPassword: string;
      }>("cmiSimulator", env, "storeKey");
      return [store, `${cmiUrl}, client id ${store.clientId}`] as const;
    },
  );

  const chargilyPort = await freePort();
  const chargily = await step(
    "chargily simulator",
    "npm run simulator -- chargily: Chargily Pay's stand-in, its test key",
    async () => {
      const env = {
        CHARGILY_SIMULATOR_PORT: String(chargilyPort),
        CHARGILY_SIMULATOR_DATABASE_URL: databaseUrl(databases.chargily),
        LOG_LEVEL: "warn",
      };
      const printed = await servedSimulator<{ apiUrl: string; mode: string; secretKey: string }>(
        "chargilySimulator",
        env,
        "secretKey",
      );
      return [printed, printed.apiUrl] as const;
    },
  );

  const walletEnv = {
    WALLET_SANDBOX_PORT: String(walletPort),
    WALLET_SANDBOX_DATABASE_URL: databaseUrl(databases.wallet),
    WALLET_PROVIDER_SECRET: walletSecret,
    LOG_LEVEL: "warn",
  };
  const startWallet = () =>
    serveGuideCommand("walletOperator", walletEnv, () => answers(`${walletUrl}/v1/balances`), 120_000);
  wallet = await step("wallet operator", "npm run wallet-sandbox: the wallet as an operator of its own", async () => {
    const served = await startWallet();
    return [served, walletUrl] as const;
  });

  const gatewayEnv: Env = {
    APP_ENV: "production",
    PORT: String(gatewayPort),
    HOST: "127.0.0.1",
    PUBLIC_BASE_URL: gatewayUrl,
    // Plain http on this machine, as behind a proxy that ends TLS (docs/going-live.md).
    TLS_TERMINATED_BY_PROXY: "true",
    DATABASE_URL: databaseUrl(databases.gateway),
    DATABASE_POOL_SIZE: "5",
    GATEWAY_SECRET: randomBytes(32).toString("base64"),
    WALLET_PROVIDER_URL: walletUrl,
    WALLET_PROVIDER_SECRET: walletSecret,
    WALLET_PROVIDER_TIMEOUT_MS: "3000",
    PROVIDER_CALL_TIMEOUT_MS: "5000",
    CARD_PROVIDER_API_URL: cardUrl,
    SATIM_API_URL: satim.apiUrl,
    CLICTOPAY_API_URL: clictopay.apiUrl,
    CMI_URL: cmiUrl,
    CHARGILY_API_URL: chargily.apiUrl,
    WEB_CONCURRENCY: "1",
    LOG_LEVEL: "warn",
  };
  const gateway = await step(
    "gateway",
    "npm start with APP_ENV=production (builds first when the sources changed)",
    async () => {
      const served = await serveGuideCommand("start", gatewayEnv, (output) => /listening on/.test(output), 15 * 60_000);
      running.push(served);
      const ready = await runGuideCommand("ready", gatewayEnv);
      if (ready.code !== 0) throw new Error(`ready: ${ready.stderr}`);
      return [served, `${gatewayUrl}, ready: ${ready.stdout.trim()}`] as const;
    },
  );

  const merchant = await step(
    "onboarding",
    "merchant create (production rules, the owner's console invitation) and card-keys",
    async () => {
      const created = await guideJson<{
        clientId: string;
        clientSecret: string;
        service: string;
        webhookSecret: string;
        cardProviderPublishableKey: string;
        ownerInviteUrl?: string;
      }>("onboard", {
        ...gatewayEnv,
        STRIPE_PUBLISHABLE_KEY: cards.publishableKey,
        OWNER_EMAIL: "owner@atlas-shop.example",
      });
      // The first owner's console invitation (docs/going-live.md, "The merchant's console").
      if (!created.ownerInviteUrl?.startsWith(`${gatewayUrl}/console/invitations/`))
        throw new Error(`no console invitation for the owner: ${created.ownerInviteUrl}`);
      const keyed = await runGuideCommand("cardKeys", {
        ...gatewayEnv,
        CLIENT_ID: created.clientId,
        STRIPE_PUBLISHABLE_KEY: cards.publishableKey,
        STRIPE_SECRET_KEY: cards.secretKey,
        STRIPE_WEBHOOK_SECRET: cards.webhookSecret,
      });
      if (keyed.code !== 0) throw new Error(`card-keys: ${keyed.stderr}`);
      const chargilyKeyed = await runGuideCommand("chargilyKey", {
        ...gatewayEnv,
        CLIENT_ID: created.clientId,
        CHARGILY_SECRET_KEY: chargily.secretKey,
      });
      if (chargilyKeyed.code !== 0 || !/connection: ok|"connection": "ok"|connection.*ok/.test(chargilyKeyed.stdout))
        throw new Error(`chargily key: ${chargilyKeyed.stderr || chargilyKeyed.stdout}`);
      return [
        created,
        `service ${created.service}, client id ${created.clientId}, ` +
          `card key ${created.cardProviderPublishableKey}, Chargily test key set, owner invited`,
      ] as const;
    },
  );

  await step(
    "CMI credentials",
    "merchant update --country MAR --cmi-client-id --cmi-api-user " +
      "(store key and API password from the environment), Test connection",
    async () => {
      const updated = await guideJson<{ cmi: { enabledIn: string[]; connection: string } }>("cmiCredentials", {
        ...gatewayEnv,
        CLIENT_ID: merchant.clientId,
        CMI_CLIENT_ID: cmi.clientId,
        CMI_API_USER: cmi.apiUser,
        CMI_STORE_KEY: cmi.storeKey,
        CMI_API_PASSWORD: cmi.apiPassword,
      });
      if (updated.cmi.connection !== "ok" || !updated.cmi.enabledIn.includes("MAR"))
        throw new Error(`CMI credentials: ${JSON.stringify(updated.cmi)}`);
      return `CMI enabled in ${updated.cmi.enabledIn.join(", ")}, connection ${updated.cmi.connection}`;
    },
  );

  await step(
    "SATIM credentials",
    "merchant update --terms-url --satim-terminal-id --satim-username (password from the environment), Test connection",
    async () => {
      const updated = await guideJson<{ termsUrl: string | null; satim: { enabledIn: string[]; connection: string } }>(
        "satimCredentials",
        {
          ...gatewayEnv,
          CLIENT_ID: merchant.clientId,
          TERMS_URL,
          SATIM_TERMINAL_ID: satim.terminalId,
          SATIM_USERNAME: satim.userName,
          SATIM_PASSWORD: satim.password,
        },
      );
      if (updated.satim.connection !== "ok" || !updated.satim.enabledIn.includes("DZA"))
        throw new Error(`SATIM credentials: ${JSON.stringify(updated.satim)}`);
      if (updated.termsUrl !== TERMS_URL)
        throw new Error(`the merchant's terms of payment are ${updated.termsUrl}, not ${TERMS_URL}`);
      return (
        `SATIM enabled in ${updated.satim.enabledIn.join(", ")}, connection ${updated.satim.connection}; ` +
        `terms of payment ${TERMS_URL}`
      );
    },
  );

  await step(
    "ClicToPay credentials",
    "merchant update --country TUN --clictopay-username (password from the environment), Test connection",
    async () => {
      const updated = await guideJson<{ clictopay: { enabledIn: string[]; connection: string } }>(
        "clictopayCredentials",
        {
          ...gatewayEnv,
          CLIENT_ID: merchant.clientId,
          CLICTOPAY_USERNAME: clictopay.userName,
          CLICTOPAY_PASSWORD: clictopay.password,
        },
      );
      if (updated.clictopay.connection !== "ok" || !updated.clictopay.enabledIn.includes("TUN"))
        throw new Error(`ClicToPay credentials: ${JSON.stringify(updated.clictopay)}`);
      return (
        `ClicToPay enabled in ${updated.clictopay.enabledIn.join(", ")}, ` +
        `connection ${updated.clictopay.connection}`
      );
    },
  );

  const apiEnv: Env = {
    PUBLIC_BASE_URL: gatewayUrl,
    CLIENT_ID: merchant.clientId,
    CLIENT_SECRET: merchant.clientSecret,
    SERVICE: merchant.service,
  };
  apiEnv.AUTH = (await runGuideCommand("auth", apiEnv, { print: "AUTH" })).stdout;

  receiver = await startWebhookReceiver(merchant.webhookSecret);
  const listen = await step("webhooks", "npm run gateway -- listen --forward-to a local receiver", async () => {
    const env = {
      GATEWAY_BASE_URL: gatewayUrl,
      GATEWAY_CLIENT_ID: merchant.clientId,
      GATEWAY_CLIENT_SECRET: merchant.clientSecret,
      GATEWAY_WEBHOOK_SECRET: merchant.webhookSecret,
      FORWARD_TO: receiver!.url,
    };
    const served = await serveGuideCommand("listen", env, (output) => output.includes("Ready."), 60_000);
    running.push(served);
    return [served, `forwarding to ${receiver!.url}`] as const;
  });

  browser = await openRehearsalBrowser(cardUrl);
  await rehearsePayments({
    apiEnv,
    browser,
    newPhone: () => `+2135${randomInt(10_000_000, 99_999_999)}`,
    termsUrl: TERMS_URL,
    stopWallet: async () => wallet?.stop(),
    restartWallet: async () => {
      wallet = await startWallet();
    },
  });

  await step("drain", "every event of the rehearsal forwarded and signed; the gateway stopped gracefully", async () => {
    const deadline = Date.now() + 60_000;
    let listed: string[] = [];
    for (;;) {
      const events = JSON.parse((await runGuideCommand("events", apiEnv)).stdout) as { data: { id: string }[] };
      listed = events.data.map((event) => event.id);
      if (listed.length > 0 && listed.every((id) => receiver!.verified.has(id))) break;
      if (Date.now() > deadline) throw new Error(`forwarded ${receiver!.verified.size} of ${listed.length} events`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    if (receiver!.refused > 0) throw new Error(`${receiver!.refused} deliveries failed the signature check`);
    await listen.stop();
    await gateway.stop();
    if (!/stopped/.test(gateway.output())) throw new Error("the gateway did not stop gracefully");
    return `${listed.length} events, each verified with the webhook secret; gateway stopped`;
  });

  await step("audit", "npm run audit on the gateway's database", async () => {
    const audit = await runGuideCommand("audit", gatewayEnv);
    const totals = audit.stdout.split("\n").find((line) => line.startsWith("audit:")) ?? audit.stdout;
    if (audit.code !== 0) throw new Error(`${totals}\n${audit.stdout}${audit.stderr}`.slice(0, 3000));
    return totals;
  });
}

async function stopEverything() {
  await browser?.close().catch(() => {});
  await receiver?.close().catch(() => {});
  for (const served of [...running.reverse(), ...(wallet ? [wallet] : [])]) await served.stop().catch(() => {});
  for (const name of Object.values(databases))
    await recreateDatabase(databaseUrl(name), { dropOnly: true }).catch(() => {});
}

const started = Date.now();
// Ctrl-C: the children run in process groups of their own, so stop them before leaving.
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void stopEverything().then(() => process.exit(130)));
}
main()
  .then(async () => {
    await stopEverything();
    console.log(summary(Date.now() - started));
  })
  .catch(async (error: unknown) => {
    await stopEverything();
    console.log(summary(Date.now() - started));
    console.error(`Rehearsal failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
