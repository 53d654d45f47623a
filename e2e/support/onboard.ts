import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { OnboardedMerchant } from "../../lib/merchants/onboard-merchant.schema";
import { E2E_DATABASE_URL } from "./env";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

/** Onboards through the operator's CLI (contract 9), on the running server's database. */
export async function onboardMerchant(options: {
  name: string;
  redirectUrl?: string;
  origins?: string[];
}): Promise<OnboardedMerchant> {
  const args = [
    "--import",
    "tsx",
    "scripts/merchant.ts",
    "create",
    "--name",
    options.name,
    "--country",
    "DZA",
    "--country",
    "TUN",
    "--country",
    "MAR",
  ];
  if (options.redirectUrl) args.push("--redirect-url", options.redirectUrl);
  for (const origin of options.origins ?? []) args.push("--origin", origin);
  args.push("--json");
  const { stdout } = await run(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL, LOG_LEVEL: "silent" },
  });
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as OnboardedMerchant;
}

/** Sets the merchant's terms of payment (the setting SATIM's checkbox links) through the operator's CLI. */
export async function setTermsUrl(shop: OnboardedMerchant, termsUrl: string): Promise<void> {
  await run(
    process.execPath,
    [
      "--import",
      "tsx",
      "scripts/merchant.ts",
      "update",
      "--client-id",
      shop.clientId,
      "--terms-url",
      termsUrl,
      "--json",
    ],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: E2E_DATABASE_URL, LOG_LEVEL: "silent" },
    },
  );
}
