// Smoke test of the README's run command: `npm start` on a fresh embedded database must
// build if needed, migrate, print a demo merchant (and its console owner), and serve the API with those credentials.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const port = Number(process.env.SMOKE_PORT ?? 3311);
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "gateway-smoke-"));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: String(port),
  PUBLIC_BASE_URL: baseUrl,
  PGLITE_DIR: path.join(dataDir, "db"),
};
delete env.DATABASE_URL;

const SMOKE_REQUEST_ID = `smoke-${process.pid}`;
const results: { name: string; ok: boolean; detail?: string }[] = [];
function check(name: string, ok: boolean, detail?: string) {
  results.push({ name, ok, detail });
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail && !ok ? `: ${detail}` : ""}`);
}

const server = spawn("npm", ["start"], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
let output = "";
server.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
server.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));

async function main() {
  const demo = await waitFor(() => {
    const match = /Demo merchant created[^\n]*\n(\{[\s\S]*?\n\})/.exec(output);
    return match ? (JSON.parse(match[1]!) as Record<string, string>) : null;
  }, 240_000);
  check("prints the demo merchant's credentials", Boolean(demo.clientId && demo.clientSecret && demo.publishableKey));
  const authorization = `Bearer ${Buffer.from(`${demo.clientId}:${demo.clientSecret}`).toString("base64")}`;

  const created = await waitFor(async () => {
    try {
      const response = await fetch(`${baseUrl}/api/v1/customers`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json", "x-request-id": SMOKE_REQUEST_ID },
        body: JSON.stringify({ name: "Smoke Test", phone: "+213555000111" }),
      });
      return response;
    } catch {
      return null;
    }
  }, 60_000);
  check(
    "serves the API with the demo credentials (POST /customers 201)",
    created.status === 201,
    String(created.status),
  );

  // The request's context reaches its log lines through the server's per-request store (lib/log.ts).
  const accessLine = await waitFor(() => {
    const line = output
      .split("\n")
      .find((text) => text.includes(`"requestId":"${SMOKE_REQUEST_ID}"`) && text.includes('"msg":"request"'));
    return line ? (JSON.parse(line) as Record<string, unknown>) : null;
  }, 10_000).catch(() => null);
  check(
    "logs the request with its id, auth mode and service",
    accessLine?.path === "/api/v1/customers" &&
      accessLine.status === 201 &&
      accessLine.authMode === "client" &&
      typeof accessLine.service === "string",
    JSON.stringify(accessLine),
  );

  // The servers run with server/server-heap.mjs's settings (bounded resident memory).
  const listening = /\[gateway server (\d+)\] listening on [^\n]*\(([^)]*)\)/.exec(output);
  const serverArgs = listening ? readFileSync(`/proc/${listening[1]}/cmdline`, "utf8").split("\0") : [];
  check(
    "serves with a 32 MB young generation, a 64 MB initial old generation and 100% old generation growth",
    serverArgs.includes("--max-semi-space-size=32") &&
      serverArgs.includes("--initial-old-space-size=64") &&
      listening?.[2] === "--max-semi-space-size=32, --initial-old-space-size=64, old generation growth 100%",
    listening?.[0] ?? output,
  );

  // Contract 13: the demo owner's sign-in, printed beside the keys, opens the console.
  const owner = /demo owner (\S+), password (\S+)/.exec(output);
  const signIn = owner
    ? await fetch(`${baseUrl}/en/console/actions/sign-in`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", "sec-fetch-site": "same-origin" },
        body: new URLSearchParams({ email: owner[1]!, password: owner[2]! }).toString(),
      })
    : null;
  check(
    "prints the demo owner's email and password, which sign in to the console",
    signIn?.status === 303 &&
      signIn.headers.get("location") === "/en/console" &&
      /gw_console_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax/.test(signIn.headers.get("set-cookie") ?? ""),
    `${signIn?.status} ${signIn?.headers.get("location")}`,
  );

  const unknown = await fetch(`${baseUrl}/api/v1/does-not-exist`);
  check(
    "answers a JSON 404 for unknown API paths",
    unknown.status === 404 && (await unknown.json()).error?.name === "not_found",
  );
}

async function waitFor<T>(probe: () => T | null | Promise<T | null>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    if (server.exitCode !== null) throw new Error(`npm start exited with ${server.exitCode}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`timed out; server output:\n${output}`);
}

main()
  .catch((error: unknown) => check("npm start smoke run", false, String(error)))
  .finally(() => {
    try {
      process.kill(-server.pid!, "SIGTERM");
    } catch {
      // Already gone.
    }
    rmSync(dataDir, { recursive: true, force: true });
    const failed = results.filter((result) => !result.ok).length;
    console.log(`smoke: ${results.length - failed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
  });
