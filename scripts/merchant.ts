// Onboarding CLI: `npm run merchant -- create|list|rotate-secret ...` (contract section 9).
import { parseArgs } from "node:util";
import { ZodError } from "zod";
import { ConfigError, getConfig } from "../lib/config";
import { closeDatabase, getDb } from "../lib/db/client";
import { listMerchants } from "../lib/merchants/list-merchants";
import { onboardMerchant } from "../lib/merchants/onboard-merchant";
import { rotateClientSecret } from "../lib/merchants/rotate-client-secret";

const USAGE = `Usage:
  npm run merchant -- create --name <text> --country <alpha-3> [--country ...]
                      [--redirect-url <url>] [--webhook-url <url>] [--origin <url> ...]
                      [--card-provider-key <key>] [--json]
  npm run merchant -- list [--json]
  npm run merchant -- rotate-secret --client-id <id> [--json]`;

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
      json: { type: "boolean", default: false },
    },
  });
  getConfig();
  const db = await getDb();
  try {
    switch (command) {
      case "create": {
        const merchant = await onboardMerchant(db, {
          name: values.name ?? "",
          countries: (values.country ?? []).map((code) => code.toUpperCase()),
          redirectUrl: values["redirect-url"],
          webhookUrl: values["webhook-url"],
          origins: values.origin ?? [],
          cardProviderPublishableKey: values["card-provider-key"],
        });
        print(merchant, values.json, "Merchant created. The secrets below are shown this once:");
        return;
      }
      case "list":
        print(await listMerchants(db), values.json, "Merchants:");
        return;
      case "rotate-secret": {
        if (!values["client-id"]) throw new UsageError("rotate-secret needs --client-id");
        print(await rotateClientSecret(db, values["client-id"]), values.json, "New client secret (shown this once):");
        return;
      }
      default:
        throw new UsageError(command ? `Unknown command ${command}` : "Give a command");
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

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ZodError) {
    for (const issue of error.issues) process.stderr.write(`${issue.path.join(".") || "input"}: ${issue.message}\n`);
  } else if (error instanceof UsageError) {
    process.stderr.write(`${error.message}\n${USAGE}\n`);
  } else if (error instanceof ConfigError || error instanceof Error) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(`${String(error)}\n`);
  }
  process.exit(1);
});
