// Onboarding CLI: `npm run merchant -- create|list|rotate-secret ...` (contract section 9).
import { parseArgs } from "node:util";
import { ZodError } from "zod";
import { ConfigError, getConfig } from "../lib/config";
import { closeDatabase, getDb } from "../lib/db/client";
import { listMerchants } from "../lib/merchants/list-merchants";
import { onboardMerchant } from "../lib/merchants/onboard-merchant";
import { onboardMerchantInput } from "../lib/merchants/onboard-merchant.schema";
import { rotateClientSecret } from "../lib/merchants/rotate-client-secret";
import { cardAccountKeysInput, setCardProviderAccount } from "../lib/providers/card/card-provider-accounts";

const USAGE = `Usage:
  npm run merchant -- create --name <text> --country <alpha-3> [--country ...]
                      [--redirect-url <url>] [--webhook-url <url>] [--origin <url> ...]
                      [--card-provider-key <key>] [--json]
  npm run merchant -- list [--json]
  npm run merchant -- rotate-secret --client-id <id> [--json]
  STRIPE_SECRET_KEY=sk_... STRIPE_WEBHOOK_SECRET=whsec_... \
    npm run merchant -- card-keys --client-id <id> --country <alpha-3> --publishable-key <pk_...> [--json]
      (the two secrets are read from the environment, never from the command line, and never printed)`;

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: {
      name: { type: "string" },
      country: { type: "string", multiple: true },
      "redirect-url": { type: "string" },
      "webhook-url": { type: "string" },
      origin: { type: "string", multiple: true },
      "card-provider-key": { type: "string" },
      "client-id": { type: "string" },
      "publishable-key": { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  getConfig();
  // Everything is validated before the database opens: bad input touches nothing, and is
  // told as such even while a running gateway holds the embedded database.
  if (command !== "create" && command !== "list" && command !== "rotate-secret" && command !== "card-keys") {
    throw new UsageError(command ? `Unknown command ${command}` : "Give a command");
  }
  if (command === "rotate-secret" && !values["client-id"]) throw new UsageError("rotate-secret needs --client-id");
  const createInput =
    command === "create"
      ? onboardMerchantInput.parse({
          name: values.name ?? "",
          countries: (values.country ?? []).map((code) => code.toUpperCase()),
          redirectUrl: values["redirect-url"],
          webhookUrl: values["webhook-url"],
          origins: values.origin ?? [],
          cardProviderPublishableKey: values["card-provider-key"],
        })
      : undefined;
  const cardKeys =
    command === "card-keys"
      ? cardAccountKeysInput.parse({
          clientId: values["client-id"] ?? "",
          country: (values.country?.[0] ?? "").toUpperCase(),
          publishableKey: values["publishable-key"] ?? "",
          secretKey: process.env.STRIPE_SECRET_KEY ?? "",
          webhookSecret: process.env.STRIPE_WEBHOOK_SECRET ?? "",
        })
      : undefined;
  const db = await getDb();
  try {
    switch (command) {
      case "create": {
        const merchant = await onboardMerchant(db, createInput!);
        print(merchant, values.json, "Merchant created. The secrets below are shown this once:");
        return;
      }
      case "list":
        print(await listMerchants(db), values.json, "Merchants:");
        return;
      case "card-keys":
        print(await setCardProviderAccount(db, cardKeys!), values.json, "Card provider keys set (secrets stored encrypted):");
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

class UsageError extends Error {}

function print(value: unknown, json: boolean, heading: string) {
  if (json) {
    process.stdout.write(`${JSON.stringify(value)}\n`);
  } else {
    process.stdout.write(`${heading}\n${JSON.stringify(value, null, 2)}\n`);
  }
}

// Validation speaks of the flags the operator typed, not of the schema's field names.
const FLAG_OF_FIELD: Record<string, string> = {
  name: "--name",
  countries: "--country",
  redirectUrl: "--redirect-url",
  webhookUrl: "--webhook-url",
  origins: "--origin",
  cardProviderPublishableKey: "--card-provider-key",
  clientId: "--client-id",
  country: "--country",
  publishableKey: "--publishable-key",
  secretKey: "STRIPE_SECRET_KEY",
  webhookSecret: "STRIPE_WEBHOOK_SECRET",
};

const isParseArgsError = (error: unknown) => String((error as { code?: unknown })?.code).startsWith("ERR_PARSE_ARGS");

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ZodError) {
    for (const issue of error.issues) {
      const field = String(issue.path[0] ?? "");
      process.stderr.write(`${FLAG_OF_FIELD[field] ?? (issue.path.join(".") || "input")}: ${issue.message}\n`);
    }
    process.stderr.write(`${USAGE}\n`);
  } else if (error instanceof UsageError || isParseArgsError(error)) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
  } else if (error instanceof ConfigError || error instanceof Error) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`${String(error)}\n`);
  }
  process.exit(1);
});
