import { randomInt } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase } from "@/lib/db/client";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { apiClient, clientAuth, type ApiClient } from "../support/api";
import { findStoredPlaintext } from "../support/database-scan";
import { randomPhone } from "../support/factories";
import { startTestGateway, type TestGateway } from "../support/gateway-server";
import { runScript } from "../support/run-script";

const CONTRACT_FIELDS = [
  "cardProviderPublishableKey",
  "clientId",
  "clientSecret",
  "name",
  "publishableKey",
  "service",
  "tenant",
  "webhookSecret",
];
const CODE = /^[a-z0-9][a-z0-9-]*$/;
const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const CLI_TIMEOUT = 180_000;

// Without PostgreSQL, the CLI and this process share an embedded database in a temporary
// directory; PGlite admits one process at a time, so this process lets go before each run.
const pgliteDir = process.env.DATABASE_URL ? undefined : mkdtempSync(path.join(tmpdir(), "gw-merchant-cli-"));
if (pgliteDir) process.env.PGLITE_DIR = pgliteDir;

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function runCli(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  if (pgliteDir) await closeDatabase();
  return runScript("scripts/merchant.ts", args, env);
}

async function listMerchantsJson(): Promise<Record<string, unknown>[]> {
  const result = await runCli(["list", "--json"]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

let gateway: TestGateway;
let api: ApiClient;
let merchant: OnboardedMerchant;
let createdOutput: CliResult;
const merchantName = `CLI Café ${randomInt(1e9)}`;
const obtainedSecrets: string[] = [];

beforeAll(async () => {
  gateway = await startTestGateway();
  api = apiClient(gateway.baseUrl);
  createdOutput = await runCli(["create", "--name", merchantName, "--country", "DZA", "--country", "TUN", "--json"]);
  expect(createdOutput.code, createdOutput.stderr).toBe(0);
  merchant = JSON.parse(createdOutput.stdout);
  obtainedSecrets.push(merchant.clientSecret, merchant.webhookSecret);
}, CLI_TIMEOUT);

afterAll(async () => {
  await gateway.close();
  await closeDatabase();
  if (pgliteDir) rmSync(pgliteDir, { recursive: true, force: true });
});

describe("merchant create --json", () => {
  it("prints one JSON object with exactly the contract's fields", () => {
    expect(createdOutput.stdout.trim().split("\n")).toHaveLength(1);
    expect(Object.keys(merchant).sort()).toEqual(CONTRACT_FIELDS);
    expect(merchant.name).toBe(merchantName);
    for (const field of CONTRACT_FIELDS) {
      expect(typeof merchant[field as keyof OnboardedMerchant], field).toBe("string");
    }
  });

  it("prints the client id as TENANT.SERVICE.ULID and the codes it names", () => {
    expect(merchant.tenant).toMatch(CODE);
    expect(merchant.service).toMatch(CODE);
    const [tenant, service, id, ...rest] = merchant.clientId.split(".");
    expect(rest).toEqual([]);
    expect(tenant).toBe(merchant.tenant);
    expect(service).toBe(merchant.service);
    expect(id).toMatch(ULID);
  });

  it("prints a client secret of 32 random bytes in base64url", () => {
    expect(merchant.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(merchant.clientSecret, "base64url")).toHaveLength(32);
  });

  it("prints a pk_service_ publishable key, a whsec_ webhook secret and a card provider key", () => {
    expect(merchant.publishableKey).toMatch(/^pk_service_[A-Za-z0-9_-]{20,}$/);
    expect(merchant.webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(merchant.webhookSecret.slice("whsec_".length), "base64").length).toBeGreaterThanOrEqual(24);
    expect(merchant.cardProviderPublishableKey.length).toBeGreaterThan(10);
  });

  it(
    "prints credentials that work against the API",
    async () => {
      const response = await api.post(
        "/api/v1/customers",
        { name: "First Customer", phone: randomPhone() },
        clientAuth(merchant, { "x-service": merchant.service }),
      );
      expect(response.status).toBe(201);
    },
    CLI_TIMEOUT,
  );
});

describe("merchant list", () => {
  it(
    "lists the merchant, with every country given at create, and no secret",
    async () => {
      // One at a time: the embedded database admits a single process.
      const asJson = await runCli(["list", "--json"]);
      const asText = await runCli(["list"]);
      for (const result of [asJson, asText]) {
        expect(result.code, result.stderr).toBe(0);
        expect(result.stdout).toContain(merchant.clientId);
        expect(result.stdout).toContain(merchant.publishableKey);
        expect(result.stdout).not.toContain(merchant.clientSecret);
        expect(result.stdout).not.toContain(merchant.webhookSecret);
        expect(result.stdout).not.toMatch(/clientSecret|webhookSecret|secretHash/i);
      }
      const rows = JSON.parse(asJson.stdout) as Record<string, unknown>[];
      expect(rows.find((row) => row.clientId === merchant.clientId)).toMatchObject({
        name: merchantName,
        tenant: merchant.tenant,
        service: merchant.service,
        countries: ["DZA", "TUN"],
      });
    },
    CLI_TIMEOUT,
  );
});

describe("merchant rotate-secret", () => {
  it(
    "prints a new secret once; the old one stops working and the new one works",
    async () => {
      const result = await runCli(["rotate-secret", "--client-id", merchant.clientId, "--json"]);
      expect(result.code, result.stderr).toBe(0);
      const rotated = JSON.parse(result.stdout) as { clientId: string; clientSecret: string };
      obtainedSecrets.push(rotated.clientSecret);
      expect(Object.keys(rotated).sort()).toEqual(["clientId", "clientSecret"]);
      expect(rotated.clientId).toBe(merchant.clientId);
      expect(rotated.clientSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(rotated.clientSecret).not.toBe(merchant.clientSecret);

      const body = { name: "After Rotation", phone: randomPhone() };
      const stale = await api.post("/api/v1/customers", body, clientAuth(merchant));
      expect(stale.status).toBe(401);
      expect(stale.body.error.name).toBe("invalid_credentials");
      const rotatedMerchant = { ...merchant, clientSecret: rotated.clientSecret };
      const fresh = await api.post("/api/v1/customers", body, clientAuth(rotatedMerchant));
      expect(fresh.status).toBe(201);
    },
    CLI_TIMEOUT,
  );

  it(
    "exits non-zero for an unknown client id",
    async () => {
      const unknownId = "nobody.nobody.01J00000000000000000000000";
      const unknown = await runCli(["rotate-secret", "--client-id", unknownId, "--json"]);
      expect(unknown.code).not.toBe(0);
      expect(unknown.stdout).toBe("");
      expect(unknown.stderr).toContain("No credential with client id");
    },
    CLI_TIMEOUT,
  );
});

describe("merchant card-keys", () => {
  it(
    "sets the Stripe keys of a service and country from the environment, never printing the secrets",
    async () => {
      const secretKey = `sk_live_${"a1".repeat(20)}`;
      const webhookSecret = `whsec_${"b2".repeat(16)}`;
      const result = await runCli(
        [
          "card-keys",
          "--client-id",
          merchant.clientId,
          "--country",
          "DZA",
          "--publishable-key",
          "pk_live_cli123",
          "--json",
        ],
        {
          STRIPE_SECRET_KEY: secretKey,
          STRIPE_WEBHOOK_SECRET: webhookSecret,
        },
      );
      expect(result.code, result.stderr).toBe(0);
      obtainedSecrets.push(secretKey, webhookSecret);
      expect(JSON.parse(result.stdout)).toEqual({
        clientId: merchant.clientId,
        country: "DZA",
        publishableKey: "pk_live_cli123",
        secretKey: "set",
        webhookSecret: "set",
      });
      expect(result.stdout + result.stderr).not.toContain(secretKey);
      expect(result.stdout + result.stderr).not.toContain(webhookSecret);
    },
    CLI_TIMEOUT,
  );

  it(
    "refuses a secret key that is not a Stripe key, naming the variable",
    async () => {
      const result = await runCli(
        ["card-keys", "--client-id", merchant.clientId, "--country", "DZA", "--publishable-key", "pk_live_cli123"],
        {
          STRIPE_SECRET_KEY: "not-a-key",
          STRIPE_WEBHOOK_SECRET: "whsec_abc",
        },
      );
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain("STRIPE_SECRET_KEY");
      expect(result.stderr).not.toContain("not-a-key");
    },
    CLI_TIMEOUT,
  );
});

describe("bad input", () => {
  it(
    "exits non-zero with a message naming the flag, prints nothing on stdout, and creates nothing",
    async () => {
      const tag = `Refused ${randomInt(1e9)}`;
      const cases: [string[], string[]][] = [
        [
          ["create", "--name", `${tag} a`, "--json"],
          ["--country", "required"],
        ],
        [
          ["create", "--name", `${tag} b`, "--country", "DZA", "--redirect-url", "not a url", "--json"],
          ["--redirect-url", "http(s) URL"],
        ],
        [
          ["create", "--name", `${tag} c`, "--country", "DZA", "--webhook-url", "ftp://hooks.example", "--json"],
          ["--webhook-url"],
        ],
        [["create", "--name", `${tag} d`, "--country", "DZA", "--origin", "javascript:alert(1)"], ["--origin"]],
        [
          ["create", "--name", `${tag} e`, "--country", "DZ", "--json"],
          ["--country", "alpha-3"],
        ],
        [
          ["create", "--country", "DZA", "--json"],
          ["--name", "required"],
        ],
        [
          ["create", "--name", `${tag} f`, "--country", "DZA", "--contry", "TUN"],
          ["--contry", "Usage"],
        ],
        [["frobnicate"], ["Unknown command", "Usage"]],
        [["rotate-secret"], ["--client-id", "Usage"]],
      ];
      // Run together: none of them may get as far as writing anything.
      const results = await Promise.all(cases.map(([args]) => runCli(args)));
      for (const [index, [args, expected]] of cases.entries()) {
        const result = results[index]!;
        expect(result.code, args.join(" ")).not.toBe(0);
        expect(result.stdout, args.join(" ")).toBe("");
        for (const text of expected) expect(result.stderr, args.join(" ")).toContain(text);
      }
      const names = (await listMerchantsJson()).map((row) => String(row.name));
      expect(names.length).toBeGreaterThan(0);
      expect(names.filter((name) => name.startsWith(tag))).toEqual([]);
    },
    CLI_TIMEOUT,
  );

  it(
    "stops on a bad setting with a message naming it, before touching anything",
    async () => {
      const [badPort, production] = await Promise.all([
        runCli(["list", "--json"], { PORT: "not-a-port" }),
        runCli(["list", "--json"], { APP_ENV: "production", GATEWAY_SECRET: "", PUBLIC_BASE_URL: "" }),
      ]);
      expect(badPort.code).not.toBe(0);
      expect(badPort.stderr).toContain("Invalid configuration");
      expect(badPort.stderr).toContain("PORT");
      expect(badPort.stdout).toBe("");

      expect(production.code).not.toBe(0);
      for (const key of ["GATEWAY_SECRET", "PUBLIC_BASE_URL", "WALLET_PROVIDER_URL", "WALLET_PROVIDER_SECRET"]) {
        expect(production.stderr).toContain(`${key}: is required when APP_ENV=production`);
      }
    },
    CLI_TIMEOUT,
  );
});

describe("storage of onboarding secrets", () => {
  it(
    "keeps neither the client secrets, the webhook secret nor the Stripe secrets in plaintext in any table",
    async () => {
      expect(obtainedSecrets).toHaveLength(5);
      expect(await findStoredPlaintext(obtainedSecrets)).toEqual([]);
    },
    CLI_TIMEOUT,
  );
});
