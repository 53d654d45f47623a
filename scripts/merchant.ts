// Onboarding CLI: `npm run merchant -- create|update|list|rotate-secret|invite|reset-password ...`
// (contract sections 9 and 13).
import { parseArgs } from "node:util";
import { getConfig } from "../lib/config";
import { closeDatabase, getDatabase } from "../lib/db/client";
import { listMerchants } from "../lib/merchants/list-merchants";
import { onboardMerchant } from "../lib/merchants/onboard-merchant";
import { onboardMerchantInput } from "../lib/merchants/onboard-merchant.schema";
import { rotateClientSecret } from "../lib/merchants/rotate-client-secret";
import { cardAccountKeysInput, setCardProviderAccount } from "../lib/providers/card/card-provider-accounts";
import { updateMerchant } from "../lib/merchants/update-merchant";
import { updateMerchantInput } from "../lib/merchants/update-merchant.schema";
import { CLI_ACTOR, inviteToMerchant } from "../lib/console/merchants/invite-to-merchant";
import { emailInvitation } from "../lib/console/access/invitation-mail";
import { createResetLinkForEmail } from "../lib/console/access/password-resets";
import type { ConsoleRole } from "../lib/console/access/roles";
import { configuredMailer } from "../lib/mail/mailer";
import { isConsoleRole, CONSOLE_ROLES } from "../lib/console/access/roles";
import { HelpRequested, runCli, UsageError } from "./lib/cli";
import { setMethodCredentials } from "../lib/payment-methods/method-credentials";
import { z } from "zod";

// What the SATIM flags must hold (lib/payment-methods/satim validates again when it seals them).
const satimAccountInput = z.object({
  terminalId: z.string().regex(/^[A-Za-z0-9]{1,16}$/, "must be SATIM's terminal id (1 to 16 letters and digits)"),
  userName: z.string().min(1, "is required with --satim-terminal-id").max(30),
  password: z.string().min(1, "is required (the environment variable, never a flag)").max(30),
});

// What the ClicToPay flags must hold (lib/payment-methods/clictopay validates again when it seals them).
const clictopayAccountInput = z.object({
  userName: z.string().min(1, "is required").max(100),
  password: z.string().min(1, "is required in CLICTOPAY_PASSWORD (the environment variable, never a flag)").max(100),
});

// What the CMI flags must hold (lib/payment-methods/cmi validates again when it seals them).
const cmiAccountInput = z.object({
  cmiClientId: z.string().regex(/^[A-Za-z0-9]{1,15}$/, "must be CMI's client id (the store's merchant id)"),
  storeKey: z.string().min(1, "is required in CMI_STORE_KEY (the environment variable, never a flag)").max(128),
  apiUser: z
    .string()
    .min(1, "is required with --cmi-client-id (the API user created in CMI's Merchant Center)")
    .max(64),
  apiPassword: z.string().min(1, "is required in CMI_API_PASSWORD (the environment variable, never a flag)").max(128),
});
// What the Chargily flags must hold (lib/payment-methods/chargily validates the key again when it seals it).
const chargilyAccountInput = z.object({
  mode: z.enum(["test", "live"], "must be test or live"),
  secretKey: z.string().min(1, "is required in CHARGILY_SECRET_KEY (the environment variable, never a flag)").max(120),
});

const COMMANDS = {
  create: `npm run merchant -- create --name <text> --country <alpha-3> [--country ...]
                      [--redirect-url <url>] [--webhook-url <url>] [--origin <url> ...]
                      [--card-provider-key <key>] [--owner-email <email>] [--json]
    Onboards a merchant (tenant, service, credentials) and prints its secrets once.
    --owner-email adds ownerInviteUrl: the console invitation of its first owner (72 hours, once).
    --origin allows a browser origin (merchant_auth) and a returnUrl/redirectUrl origin;
    http://localhost:* admits any port of that host.`,
  update: `npm run merchant -- update --client-id <id> [--name <text>] [--country <alpha-3> ...]
                      [--redirect-url <url>|none] [--webhook-url <url>|none] [--origin <url> ...]
                      [--time-zone <IANA name>|default] [--terms-url <https url>|none] [--rotate-webhook-secret]
                      [--satim-terminal-id <id> --satim-username <name>] [--clictopay-username <name>]
                      [--cmi-client-id <id> --cmi-api-user <name>] [--chargily-mode test|live] [--json]
    Changes an existing merchant. --country and --origin replace the whole list; "none"
    clears a URL. --time-zone is the zone the console shows times in (Africa/Algiers);
    "default" goes back to the first country's. --terms-url (https) is the merchant's
    terms of payment, linked by the SATIM checkout's "I accept the terms of payment".
    Prints the webhook secret only when it is new: with --rotate-webhook-secret,
    or when the merchant gets its first webhook URL.
    --satim-terminal-id and --satim-username set the merchant's SATIM ePay credentials (with
    SATIM_PASSWORD from the environment, never the command line): stored encrypted, never
    printed, audited; SATIM is then enabled in Algeria and a harmless call tests them.
    --clictopay-username sets the merchant's ClicToPay API user (with CLICTOPAY_PASSWORD from
    the environment): the same way, enabling ClicToPay in Tunisia.
    --cmi-client-id and --cmi-api-user set the merchant's CMI store (with CMI_STORE_KEY and
    CMI_API_PASSWORD from the environment): the same way, enabling CMI in Morocco.
    --chargily-mode sets the merchant's Chargily Pay secret key (CHARGILY_SECRET_KEY from the
    environment, test_sk_... or live_sk_...): the same way, enabling Chargily Pay in Algeria;
    the test is GET /balance.`,
  list: `npm run merchant -- list [--json]
    Lists merchants: names, codes, client ids, publishable keys, URLs (never a secret).`,
  invite: `npm run merchant -- invite --client-id <id> --email <email> --role owner|developer|support|viewer [--json]
    Prints { inviteUrl }: a console invitation to the merchant with that role (72 hours, once).`,
  "reset-password": `npm run merchant -- reset-password --email <email> [--json]
    Prints { resetUrl }: a link that sets a new console password for that person (one hour, once)
    and ends every session of theirs.`,
  "rotate-secret": `npm run merchant -- rotate-secret --client-id <id> [--json]
    Makes a new client secret; the old one stops working at once.`,
  "card-keys": `STRIPE_SECRET_KEY=sk_... STRIPE_WEBHOOK_SECRET=whsec_... \\
    npm run merchant -- card-keys --client-id <id> --country <alpha-3> --publishable-key <pk_...> [--json]
    Sets the service's Stripe keys for one country. The two secrets are read from the
    environment (never the command line), stored encrypted and never printed.`,
} as const;
type Command = keyof typeof COMMANDS;

const USAGE = `Usage:\n${Object.values(COMMANDS)
  .map((text) => `  ${text}`)
  .join("\n")}\n  npm run merchant -- <command> --help`;

const isCommand = (value: string | undefined): value is Command => value !== undefined && value in COMMANDS;

// Validation speaks of the flags the operator typed, not of the schema's field names.
const FLAG_OF_FIELD: Record<string, string> = {
  name: "--name",
  countries: "--country",
  redirectUrl: "--redirect-url",
  webhookUrl: "--webhook-url",
  origins: "--origin",
  termsUrl: "--terms-url",
  cardProviderPublishableKey: "--card-provider-key",
  clientId: "--client-id",
  rotateWebhookSecret: "--rotate-webhook-secret",
  timeZone: "--time-zone",
  country: "--country",
  publishableKey: "--publishable-key",
  secretKey: "STRIPE_SECRET_KEY",
  webhookSecret: "STRIPE_WEBHOOK_SECRET",
  terminalId: "--satim-terminal-id",
  userName: "--satim-username",
  password: "SATIM_PASSWORD",
  cmiClientId: "--cmi-client-id",
  storeKey: "CMI_STORE_KEY",
  apiUser: "--cmi-api-user",
  apiPassword: "CMI_API_PASSWORD",
};

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  if (command === undefined || command === "--help" || command === "-h" || command === "help")
    throw new HelpRequested(USAGE);
  if (!isCommand(command)) throw new UsageError(`Unknown command ${command}`);
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: "string" },
      country: { type: "string", multiple: true },
      "redirect-url": { type: "string" },
      "webhook-url": { type: "string" },
      origin: { type: "string", multiple: true },
      "time-zone": { type: "string" },
      "terms-url": { type: "string" },
      "card-provider-key": { type: "string" },
      "client-id": { type: "string" },
      "rotate-webhook-secret": { type: "boolean", default: false },
      "publishable-key": { type: "string" },
      "satim-terminal-id": { type: "string" },
      "satim-username": { type: "string" },
      "clictopay-username": { type: "string" },
      "cmi-client-id": { type: "string" },
      "cmi-api-user": { type: "string" },
      "chargily-mode": { type: "string" },
      "owner-email": { type: "string" },
      email: { type: "string" },
      role: { type: "string" },
      json: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) throw new HelpRequested(`Usage:\n  ${COMMANDS[command]}`);
  const config = getConfig();
  // Everything is validated before the database opens: bad input touches nothing, and is
  // told as such even while a running gateway holds the embedded database.
  if (command === "rotate-secret" && !values["client-id"]) throw new UsageError("rotate-secret needs --client-id");
  const inviteRole = isConsoleRole(values.role) ? values.role : null;
  if (command === "invite") {
    if (!values["client-id"] || !values.email) throw new UsageError("invite needs --client-id and --email");
    if (!inviteRole) throw new UsageError(`invite needs --role, one of ${CONSOLE_ROLES.join(", ")}`);
  }
  if (command === "reset-password" && !values.email) throw new UsageError("reset-password needs --email");
  const email = command === "create" ? values["owner-email"] : values.email;
  if (email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new UsageError(`${command === "create" ? "--owner-email" : "--email"} must be an email address`);
  const countries = values.country?.map((code) => code.toUpperCase());
  const createInput =
    command === "create"
      ? onboardMerchantInput.parse({
          name: values.name ?? "",
          countries: countries ?? [],
          redirectUrl: values["redirect-url"],
          webhookUrl: values["webhook-url"],
          origins: values.origin ?? [],
          cardProviderPublishableKey: values["card-provider-key"],
        })
      : undefined;
  const orNull = (value: string | undefined) => (value === "none" ? null : value);
  const satimOnly =
    command === "update" &&
    Boolean(
      values["satim-terminal-id"] ||
      values["satim-username"] ||
      values["clictopay-username"] ||
      values["cmi-client-id"] ||
      values["cmi-api-user"] ||
      values["chargily-mode"],
    ) &&
    [
      values.name,
      countries,
      values["redirect-url"],
      values["webhook-url"],
      values.origin,
      values["terms-url"],
      values["time-zone"],
    ].every((value) => value === undefined) &&
    !values["rotate-webhook-secret"];
  if (satimOnly && !values["client-id"]) throw new UsageError("update needs --client-id");
  const updateInput =
    command === "update" && !satimOnly
      ? updateMerchantInput.parse({
          clientId: values["client-id"] ?? "",
          name: values.name,
          countries,
          redirectUrl: orNull(values["redirect-url"]),
          webhookUrl: orNull(values["webhook-url"]),
          origins: values.origin,
          timeZone: values["time-zone"] === "default" ? null : values["time-zone"],
          termsUrl: orNull(values["terms-url"]),
          rotateWebhookSecret: values["rotate-webhook-secret"],
        })
      : undefined;
  const satimSettings =
    command === "update" && (values["satim-terminal-id"] || values["satim-username"])
      ? satimAccountInput.parse({
          terminalId: values["satim-terminal-id"] ?? "",
          userName: values["satim-username"] ?? "",
          password: config.SATIM_PASSWORD ?? "",
        })
      : undefined;
  const clictopaySettings =
    command === "update" && values["clictopay-username"] !== undefined
      ? clictopayAccountInput.parse({
          userName: values["clictopay-username"],
          password: config.CLICTOPAY_PASSWORD ?? "",
        })
      : undefined;
  const cmiSettings =
    command === "update" && (values["cmi-client-id"] !== undefined || values["cmi-api-user"] !== undefined)
      ? cmiAccountInput.parse({
          cmiClientId: values["cmi-client-id"] ?? "",
          apiUser: values["cmi-api-user"] ?? "",
          storeKey: config.CMI_STORE_KEY ?? "",
          apiPassword: config.CMI_API_PASSWORD ?? "",
        })
      : undefined;
  const chargilySettings =
    command === "update" && values["chargily-mode"] !== undefined
      ? chargilyAccountInput.parse({ mode: values["chargily-mode"], secretKey: config.CHARGILY_SECRET_KEY ?? "" })
      : undefined;
  const cardKeys =
    command === "card-keys"
      ? cardAccountKeysInput.parse({
          clientId: values["client-id"] ?? "",
          country: countries?.[0] ?? "",
          publishableKey: values["publishable-key"] ?? "",
          secretKey: config.STRIPE_SECRET_KEY ?? "",
          webhookSecret: config.STRIPE_WEBHOOK_SECRET ?? "",
        })
      : undefined;
  // The database says which environment this is (its seal), not a default: run without APP_ENV
  // on a production database, the CLI works as production (https webhooks, real card keys) and
  // needs that gateway's GATEWAY_SECRET; it never writes a sandbox secret there.
  const { db } = await getDatabase({ environmentFromDatabase: true });
  // A sandbox tests SATIM credentials against the simulator a sandbox gateway hosts.
  if ((satimSettings || clictopaySettings || cmiSettings || chargilySettings) && getConfig().isSandbox)
    (await import("../mount-simulators")).mountSimulators();
  try {
    switch (command) {
      case "create": {
        // The merchant and its owner's invitation commit together.
        const { merchant, invitation } = await db.transaction(async (tx) => {
          const onboarded = await onboardMerchant(tx, createInput!);
          if (!values["owner-email"]) return { merchant: onboarded, invitation: null };
          const invited = await inviteToMerchant(tx, {
            clientId: onboarded.clientId,
            email: values["owner-email"],
            role: "owner",
          });
          return { merchant: { ...onboarded, ownerInviteUrl: invited.inviteUrl }, invitation: invited };
        });
        print(merchant, values.json, "Merchant created. The secrets below are shown this once:");
        if (invitation) await emailInvitationFromCli({ email: values["owner-email"]!, role: "owner", ...invitation });
        return;
      }
      case "invite": {
        const invitation = await inviteToMerchant(db, {
          clientId: values["client-id"]!,
          email: values.email!,
          role: inviteRole!,
        });
        print({ inviteUrl: invitation.inviteUrl }, values.json, "Invitation link (works once, for 72 hours):");
        await emailInvitationFromCli({ email: values.email!, role: inviteRole!, ...invitation });
        return;
      }
      case "reset-password": {
        const reset = await createResetLinkForEmail(db, { email: values.email!, actor: CLI_ACTOR });
        if (!reset) throw new UsageError(`No console user has the email ${values.email}`);
        print(reset, values.json, "Password reset link (works once, for one hour; ends every session of this person):");
        return;
      }
      case "update": {
        const merchantUpdate: { clientId: string; webhookSecret?: string } = updateInput
          ? await updateMerchant(db, updateInput)
          : { clientId: values["client-id"]! };
        const withSatim = satimSettings
          ? {
              ...merchantUpdate,
              satim: await setMethodCredentials(db, {
                clientId: values["client-id"]!,
                code: "SATIM",
                settings: satimSettings,
                actor: CLI_ACTOR,
              }),
            }
          : merchantUpdate;
        const withClictopay = clictopaySettings
          ? {
              ...withSatim,
              clictopay: await setMethodCredentials(db, {
                clientId: values["client-id"]!,
                code: "CLICTOPAY",
                settings: clictopaySettings,
                actor: CLI_ACTOR,
              }),
            }
          : withSatim;
        const withCmi = cmiSettings
          ? {
              ...withClictopay,
              cmi: await setMethodCredentials(db, {
                clientId: values["client-id"]!,
                code: "CMI",
                settings: {
                  clientId: cmiSettings.cmiClientId,
                  storeKey: cmiSettings.storeKey,
                  apiUser: cmiSettings.apiUser,
                  apiPassword: cmiSettings.apiPassword,
                },
                actor: CLI_ACTOR,
              }),
            }
          : withClictopay;
        const updated = chargilySettings
          ? {
              ...withCmi,
              chargily: await setMethodCredentials(db, {
                clientId: values["client-id"]!,
                code: "CHARGILY",
                settings: chargilySettings,
                actor: CLI_ACTOR,
              }),
            }
          : withCmi;
        print(
          updated,
          values.json,
          updated.webhookSecret ? "Merchant updated. Its new webhook secret is shown this once:" : "Merchant updated:",
        );
        return;
      }
      case "list":
        print(await listMerchants(db), values.json, "Merchants:");
        return;
      case "card-keys":
        print(
          await setCardProviderAccount(db, cardKeys!),
          values.json,
          "Card provider keys set (secrets stored encrypted):",
        );
        return;
      case "rotate-secret": {
        print(await rotateClientSecret(db, values["client-id"]!), values.json, "New client secret (shown this once):");
        return;
      }
    }
  } finally {
    await closeDatabase();
  }
}

/**
 * With SMTP_URL set, the invitation is also emailed (after it committed); stdout keeps only the
 * printed object, so the outcome is told on stderr. Without SMTP_URL nothing is said.
 */
async function emailInvitationFromCli(options: {
  email: string;
  merchantName: string;
  role: ConsoleRole;
  inviteUrl: string;
}) {
  if (!configuredMailer()) return;
  const emailed = await emailInvitation(options);
  process.stderr.write(
    emailed
      ? `Invitation emailed to ${options.email}.\n`
      : `The invitation could not be emailed to ${options.email}: send the link yourself.\n`,
  );
}

function print(value: unknown, json: boolean, heading: string) {
  if (json) {
    process.stdout.write(`${JSON.stringify(value)}\n`);
  } else {
    process.stdout.write(`${heading}\n${JSON.stringify(value, null, 2)}\n`);
  }
}

runCli(() => main(process.argv.slice(2)), { usage: USAGE, flagOf: FLAG_OF_FIELD });
