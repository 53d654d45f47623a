// Smoke test of `npm run dev` (server/dev.mjs), `npm run test:smoke-dev`, run by CI after the chaos run
// (a development server compiles each page on demand: tens of seconds on two cores). On a fresh
// embedded database: /api and the console pages come through npm start's lanes, the OTP page
// ships no Next.js runtime (as under npm start), a page with the runtime keeps its scripts and
// its hot-reload websocket answers (Next.js handed the server, next({ httpServer })), and a new
// island file is built and served without a restart.
// Then `npm start` on the same database (building first when the sources changed: minutes)
// answers one path of each family as the development server did. Needs no other dev server in
// this folder (Next.js allows one).
import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { consoleStylesheet } from "../server/build-lanes.mjs";

const port = Number(process.env.SMOKE_PORT ?? 3312);
const baseUrl = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "gateway-smoke-dev-"));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  PORT: String(port),
  PUBLIC_BASE_URL: baseUrl,
  PGLITE_DIR: path.join(dataDir, "db"),
};
delete env.DATABASE_URL;
/** An island that exists only during this run (a new file, so an interrupted run edits no real one). */
const PROBE_ISLAND = "components/islands/smoke-dev-probe.ts";
const MANIFEST = ".islands/manifest.json";

const results: { name: string; ok: boolean; detail?: string }[] = [];
function check(name: string, ok: boolean, detail?: string) {
  results.push({ name, ok, detail });
  console.log(`${ok ? "ok  " : "FAIL"} ${name}${detail && !ok ? `: ${detail}` : ""}`);
}

let server: ReturnType<typeof spawn> | undefined;
let output = "";

async function main() {
  // The embedded database admits one process: onboard before the server starts (which migrates it).
  const { stdout } = await promisify(execFile)(
    "npx",
    ["tsx", "scripts/merchant.ts", "create", "--name", "Dev smoke", "--country", "DZA", "--json"],
    {
      env: { ...env, LOG_LEVEL: "silent" },
    },
  );
  const merchant = JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, string>;
  const authorization = `Bearer ${Buffer.from(`${merchant.clientId}:${merchant.clientSecret}`).toString("base64")}`;

  startServer(["dev"]);
  await waitFor(() => output.includes("[dev] ready"), 120_000);

  const api = async (pathname: string, body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${baseUrl}/api/v1${pathname}`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    return (await response.json()) as { data: Record<string, unknown> & { metadata?: { payUrl?: string } } };
  };
  const intent = await api("/payments/intents?countryCode=DZA", {
    actionId: `smoke-dev-${randomBytes(4).toString("hex")}`,
    amount: 100,
    actionCurrencyCode: "DZD",
    actionCountryCode: "DZA",
    userId: "+213555000111",
  });
  const proceed = await api(
    `/payments/intents/${String(intent.data.paymentId)}/proceed`,
    { paymentMethodCode: "WALLET_V2" },
    {
      "x-service": merchant.service!,
      "x-platform": "API",
    },
  );
  check("serves /api/v1 through the API lane", output.includes("[dev] lanes built"));
  const payUrl = proceed.data.metadata?.payUrl;
  check("creates a payment and gets its OTP page's address", typeof payUrl === "string");

  // The OTP page, as npm start serves it: through the hosted lane, the island and no Next.js runtime.
  const otp = await fetch(payUrl!);
  const html = await otp.text();
  check(
    "serves the OTP page",
    otp.status === 200 && html.includes('data-island="resend-countdown"'),
    String(otp.status),
  );
  check(
    "the OTP page has no Next.js script or RSC payload",
    !/<script[^>]*\/_next\/static\//.test(html) && !html.includes("__next_f"),
  );
  const island = /<script type="module" src="(\/islands\/resend-countdown-[^"]+\.js)"/.exec(html)?.[1];
  check(
    "the OTP page loads its island",
    island !== undefined && (await fetch(baseUrl + island)).status === 200,
    island,
  );

  // Issue 42: a checkoutUrl is served in the buyer's language at once, as under npm start (next.config.mjs's
  // rewrite). A fresh intent: the checkout page of one already proceeded sends the buyer on to its method's page.
  const fresh = await api("/payments/intents?countryCode=DZA", {
    actionId: `smoke-dev-${randomBytes(4).toString("hex")}`,
    amount: 100,
    actionCurrencyCode: "DZD",
    actionCountryCode: "DZA",
    userId: "+213555000111",
  });
  const checkout = await fetch(String(fresh.data.checkoutUrl), {
    redirect: "manual",
    headers: { "accept-language": "ar-DZ,ar;q=0.9" },
  });
  const checkoutHtml = await checkout.text();
  check(
    "serves a checkoutUrl in the buyer's language without a redirect",
    checkout.status === 200 && checkoutHtml.includes('<html lang="ar" dir="rtl"'),
    `${checkout.status} ${checkout.headers.get("location") ?? ""}`,
  );

  // The console lane, as under npm start: its stylesheet, and a page without a session sent to sign in.
  const stylesheet = await fetch(baseUrl + (await consoleStylesheet()).href);
  check(
    "serves the console lane's stylesheet",
    stylesheet.status === 200 && stylesheet.headers.get("content-type")!.startsWith("text/css"),
    String(stylesheet.status),
  );
  const signedOut = await fetch(`${baseUrl}/en/console/payments`, { redirect: "manual" });
  check(
    "sends a console page without a session to sign in",
    signedOut.status === 307 && signedOut.headers.get("location")!.includes("/en/console/sign-in"),
    String(signedOut.status),
  );
  const signIn = await fetch(`${baseUrl}/en/console/sign-in`);
  const signInPage = await signIn.text();
  check(
    "serves the sign-in page through the console lane, without a script",
    signIn.status === 200 && signInPage.includes("/_lanes/console.") && !signInPage.includes("<script"),
    String(signIn.status),
  );

  // A page of Next.js keeps its runtime, untouched.
  const home = await (await fetch(`${baseUrl}/en`)).text();
  check("a page of Next.js keeps its scripts, untouched", home.includes("__next_f") && !home.includes("__gwScript"));
  // Its hot reload: Next.js answers the websocket on the server it was handed (next({ httpServer })), from its
  // first request on.
  check("answers the hot-reload websocket (101)", (await upgradeStatus("/_next/hmr?id=smoke")) === 101);

  // A lane's source saved again: the lanes are rebuilt and reloaded.
  const now = new Date();
  utimesSync("lib/http/api-lane.ts", now, now);
  const rebuilt = await waitFor(() => output.includes("[dev] lanes rebuilt"), 30_000).catch(() => false);
  check("rebuilds the lanes when one of their sources changes", rebuilt);
  check(
    "answers /api/v1 from the rebuilt lanes",
    (await fetch(`${baseUrl}/api/v1/payments/intents/none`, { headers: { authorization } })).status === 404,
  );

  // An island added while the server runs is built and served.
  writeFileSync(PROBE_ISLAND, `document.documentElement.dataset.smokeDev = "${randomBytes(4).toString("hex")}";\n`);
  const built = await waitFor(() => (readManifest()["smoke-dev-probe"] as string | undefined) ?? null, 30_000).catch(
    () => undefined,
  );
  check(
    "rebuilds the islands when one changes",
    built !== undefined && (await fetch(`${baseUrl}/islands/${built}`)).status === 200,
    built,
  );
  rmSync(PROBE_ISLAND, { force: true });
  await waitFor(() => !("smoke-dev-probe" in readManifest()), 10_000).catch(() => {});

  // Issue 45: one door per path family, the same under npm run dev and npm start. The same
  // requests to each, on the same database: the lanes' answers must be equal, status and body
  // (a hosted page's but for its nonce; the OTP page's in status and title, as its countdown
  // moves on); Next.js's equal in status and title (its development HTML carries its development runtime).
  const doors = doorRequests(String(intent.data.paymentId), payUrl!, (await consoleStylesheet()).href, {
    authorization,
    "x-service": merchant.service!,
    "x-platform": "API",
  });
  const viaDev = await answersTo(doors);
  await stopServer();
  output = "";
  startServer(["start"]);
  await waitFor(() => output.includes("listening on"), 900_000);
  const viaStart = await answersTo(doors);
  for (const [name, answer] of Object.entries(viaDev)) {
    check(
      `npm start answers ${name} as npm run dev does`,
      JSON.stringify(viaStart[name]) === JSON.stringify(answer),
      `${JSON.stringify(answer)} ≠ ${JSON.stringify(viaStart[name])}`,
    );
  }
}

/**
 * One request of each path family: the lanes' compared whole (but the OTP page's countdown), Next.js's by
 * status and title.
 */
function doorRequests(paymentId: string, payUrl: string, stylesheet: string, merchantHeaders: Record<string, string>) {
  const pinned = { "x-request-id": "smoke-doors" };
  return {
    "an API path (the API lane)": {
      path: `/api/v1/payments/intents/${paymentId}/check`,
      headers: { ...merchantHeaders, ...pinned },
      whole: true,
    },
    "an unknown API path (the API lane)": { path: "/api/v1/no-such-thing", headers: pinned, whole: true },
    "the health check (the API lane)": { path: "/api/health", headers: pinned, whole: true },
    "a console page without a session (the console lane)": {
      path: "/en/console/payments",
      headers: pinned,
      whole: true,
    },
    "the console's stylesheet (the console lane)": { path: stylesheet, headers: {}, whole: true },
    "a console address no page has (the console lane)": { path: "/en/console/no-such-page", headers: {}, whole: false },
    "a hosted page (the hosted lane)": {
      path: new URL(payUrl).pathname + new URL(payUrl).search,
      headers: {},
      whole: false,
    },
    "a payment link that does not exist (the hosted lane)": { path: "/en/l/no-such-link", headers: {}, whole: true },
    "the home page (Next.js)": { path: "/en", headers: {}, whole: false },
  };
}

async function answersTo(requests: ReturnType<typeof doorRequests>) {
  const answers: Record<string, unknown> = {};
  for (const [name, { path, headers, whole }] of Object.entries(requests)) {
    const response = await fetch(baseUrl + path, { headers, redirect: "manual" });
    // The one part of a hosted page that differs from one answer to the next.
    const body = (await response.text()).replace(/ nonce="[^"]*"/g, "");
    answers[name] = whole
      ? { status: response.status, location: response.headers.get("location"), body }
      : { status: response.status, title: /<title>([^<]*)<\/title>/.exec(body)?.[1] ?? null };
  }
  return answers;
}

function startServer(npmArguments: string[]) {
  server = spawn("npm", ["run", ...npmArguments], { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
}

/** Stops the server and waits for it (it closes the embedded database, which admits one process). */
async function stopServer() {
  try {
    if (server?.pid) process.kill(-server.pid, "SIGTERM");
    if (server && server.exitCode === null)
      await new Promise((resolve) => (server!.once("exit", resolve), setTimeout(resolve, 30_000)));
  } catch {
    // Already gone.
  }
}

function readManifest(): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(MANIFEST, "utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
}

/** The status of a websocket handshake (101 when a handler took it). */
function upgradeStatus(pathname: string): Promise<number> {
  return new Promise((resolve) => {
    const request = httpRequest(`${baseUrl}${pathname}`, {
      headers: {
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-key": randomBytes(16).toString("base64"),
        "sec-websocket-version": "13",
      },
      timeout: 30_000,
    });
    request.on("upgrade", (response, socket) => {
      socket.destroy();
      resolve(response.statusCode ?? 0);
    });
    request.on("response", (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on("timeout", () => request.destroy());
    request.on("error", () => resolve(0));
    request.end();
  });
}

async function waitFor<T>(probe: () => T | null | false | Promise<T | null | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    if (server && server.exitCode !== null) throw new Error(`npm run dev exited with ${server.exitCode}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out; server output:\n${output}`);
}

main()
  .catch((error: unknown) => check("npm run dev smoke run", false, String(error)))
  .finally(async () => {
    rmSync(PROBE_ISLAND, { force: true });
    // Let the server rebuild without the probe, so the manifest it leaves matches the sources.
    await waitFor(() => !existsSync(PROBE_ISLAND) && !("smoke-dev-probe" in readManifest()), 10_000).catch(() => {});
    // It closes the embedded database before the folder goes.
    await stopServer();
    rmSync(dataDir, { recursive: true, force: true });
    const failed = results.filter((result) => !result.ok).length;
    console.log(`smoke (npm run dev): ${results.length - failed} passed, ${failed} failed`);
    process.exit(failed === 0 ? 0 : 1);
  });
