import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIGURATION_VARIABLES } from "@/lib/config";

const ROOT = path.resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(path.join(ROOT, file), "utf8");

/** The variables named in the first column of docs/configuration.md's table. */
function documentedVariables(): string[] {
  const rows = read("docs/configuration.md")
    .split("\n")
    .filter((line) => line.startsWith("| `"));
  return rows.flatMap((row) => [...row.split("|")[1]!.matchAll(/`([A-Z0-9_]+)`/g)].map((match) => match[1]!));
}

function filesUnder(dir: string, extensions: RegExp): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const relative = path.join(dir, name);
    if (statSync(path.join(ROOT, relative)).isDirectory()) return filesUnder(relative, extensions);
    return extensions.test(name) ? [relative] : [];
  });
}

// Node's and Next.js's own variables, which the gateway reads as they are meant.
const PLATFORM_VARIABLES = new Set([
  "NODE_ENV",
  "NEXT_RUNTIME",
  "NEXT_PHASE",
  "NODE_OPTIONS",
  "NODE_CLUSTER_SCHED_POLICY",
]);
// The gateway's processes: the app and its domain, and the scripts an operator runs to serve,
// onboard, audit or stand in for a provider. Development and test tools (bench, chaos, smoke,
// lighthouse, dev, rehearse) and the `gateway` client CLI keep knobs of their own.
const GATEWAY_SOURCES = [
  ...["lib", "app", "components"].flatMap((dir) => filesUnder(dir, /\.(ts|tsx|mjs)$/)),
  "proxy.ts",
  "instrumentation.ts",
  ...filesUnder("server", /\.(ts|mjs)$/),
  ...["worker.ts", "merchant.ts", "audit.ts", "wallet-sandbox.ts", "card-simulator.ts"].map(
    (name) => `scripts/${name}`,
  ),
];

describe("the configuration and its documentation", () => {
  it("documents exactly the variables lib/config.ts reads, each once", () => {
    const documented = documentedVariables();
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...CONFIGURATION_VARIABLES].sort());
  });

  it("leaves no configuration read outside lib/config.ts", () => {
    const reads = GATEWAY_SOURCES.filter((file) => file !== path.join("lib", "config.ts")).flatMap((file) =>
      [...read(file).matchAll(/process\.env(?:\.([A-Z0-9_]+)|\[|\b)/g)].map((match) => ({
        file,
        variable: match[1] ?? "(whole env)",
      })),
    );
    const stray = reads.filter(
      ({ file, variable }) =>
        !PLATFORM_VARIABLES.has(variable) &&
        // The whole environment handed on to parseConfig, and the job-runner role npm start's primary gives
        // each server.
        !(file === path.join("lib", "config.ts")) &&
        !(file === path.join("server", "serve.mjs") && variable === "GATEWAY_JOB_RUNNER") &&
        // npm run dev takes the port and host as `next dev` took them, before the gateway's config loads.
        !(file === path.join("server", "dev.mjs") && (variable === "PORT" || variable === "HOST")),
    );
    expect(stray).toEqual([]);
  });

  it("keeps the README's configuration to a link", () => {
    const readme = read("README.md");
    expect(readme).toContain("[docs/configuration.md](docs/configuration.md)");
    expect(readme).not.toContain("| `APP_ENV` |");
    expect(readme).not.toContain("CARD_PROVIDER_SECRET_KEY");
  });
});
