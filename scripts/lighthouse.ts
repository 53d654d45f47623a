// `npm run lighthouse`: Lighthouse (mobile profile: simulated slow 4G, 4x CPU throttling) on
// every hosted page in every language, with Debian's Chromium; prints the median of three runs.
// `npm run lighthouse -- --ci`: the budgets that do not depend on the machine's speed, one run
// each: accessibility and best practices 100, and the JavaScript a page loads (gzip) no more
// than the bare next-intl page of this stack (the home page: no client island) plus 10 KB.
//
// Options: --runs N (default 3), --only otp,card (pages), --app-dir DIR (serve another
// checkout's build, e.g. to measure before a change), --base-url URL (a running gateway whose
// database, LIGHTHOUSE_DATABASE_URL, this script may onboard a merchant into; else it starts one),
// --save DIR (write each run's Lighthouse JSON there, e.g. for the LCP breakdown and the trace;
// the largest-contentful-paint element's phases are printed too).
// Env: LIGHTHOUSE_PORT (default 3190), LIGHTHOUSE_DATABASE_URL (default .../gw_lighthouse).
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";
import { promisify } from "node:util";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { recreateDatabase } from "./lib/recreate-database";
import { routing } from "../lib/i18n/routing";

const ROOT = path.resolve(import.meta.dirname, "..");
const argv = process.argv.slice(2);
const flag = (name: string) => argv.includes(`--${name}`);
const option = (name: string) => {
  const index = argv.indexOf(`--${name}`);
  return index >= 0 ? argv[index + 1] : undefined;
};

const CI = flag("ci");
const RUNS = CI ? 1 : Number(option("runs") ?? 3);
const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3190);
const BASE_URL = option("base-url") ?? `http://localhost:${PORT}`;
const DATABASE_URL = process.env.LIGHTHOUSE_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/gw_lighthouse";
const LOCALES = routing.locales;
const PAGES = ["otp", "card", "qr", "return", "checkout", "link", "redirect"] as const;
const ONLY = option("only")?.split(",") ?? PAGES;
/** The issue's budget: a page's JavaScript beyond the bare next-intl page of this stack. */
const JS_ALLOWANCE_BYTES = 10 * 1024;
const SAVE_DIR = option("save");
const CHROME_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"];

type Locale = (typeof LOCALES)[number];
type PageName = (typeof PAGES)[number];
interface Merchant {
  clientId: string;
  clientSecret: string;
  service: string;
}

async function main() {
  const server = option("base-url") ? null : await startGateway();
  try {
    const shop = await onboard();
    const targets: { page: PageName | "bare"; locale: Locale; url: string }[] = [
      { page: "bare", locale: "en", url: `${BASE_URL}/en` },
    ];
    for (const locale of LOCALES) {
      for (const page of PAGES)
        if (ONLY.includes(page)) targets.push({ page, locale, url: await pageUrl(shop, page, locale) });
    }

    const bareJs = await scriptBytes(targets[0]!.url);
    const chrome = await chromeLauncher.launch({
      chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      chromeFlags: CHROME_FLAGS,
    });
    const rows: Row[] = [];
    const failures: string[] = [];
    try {
      for (const target of targets) {
        const runs: Run[] = [];
        for (let i = 0; i < RUNS; i++)
          runs.push(await audit(chrome.port, target.url, `${target.page}-${target.locale}-${i + 1}`));
        const row = {
          page: target.page,
          locale: target.locale,
          ...median(runs),
          jsGzip: await scriptBytes(target.url),
        };
        rows.push(row);
        print(row);
        if (row.accessibility !== 100)
          failures.push(`${target.page} ${target.locale}: accessibility ${row.accessibility}`);
        if (row.bestPractices !== 100)
          failures.push(`${target.page} ${target.locale}: best practices ${row.bestPractices}`);
        // The card page too: its form takes its words from the server (no next-intl client runtime).
        if (row.jsGzip > bareJs + JS_ALLOWANCE_BYTES) {
          failures.push(
            `${target.page} ${target.locale}: ${kb(row.jsGzip)} KB of JavaScript, ` +
              `budget ${kb(bareJs + JS_ALLOWANCE_BYTES)} KB`,
          );
        }
      }
    } finally {
      await chrome.kill();
    }
    console.log(
      `\nBare next-intl page: ${kb(bareJs)} KB JavaScript (gzip); ` +
        `budget per page ${kb(bareJs + JS_ALLOWANCE_BYTES)} KB.`,
    );
    if (!CI) console.log(`Median of ${RUNS} run(s) per page; performance, LCP and TBT depend on the machine's load.`);
    if (failures.length) {
      console.error(`\nBudgets not met:\n  ${failures.join("\n  ")}`);
      process.exitCode = 1;
    } else console.log("Budgets met: accessibility and best practices 100, JavaScript within budget.");
  } finally {
    if (server) stop(server);
  }
}

function stop(server: ChildProcess) {
  try {
    process.kill(-server.pid!, "SIGTERM");
  } catch {
    // already gone
  }
}

interface Run {
  performance: number | null;
  accessibility: number;
  bestPractices: number;
  lcpMs: number | null;
  tbtMs: number | null;
  fcpMs: number | null;
  cls: number | null;
}
type Row = Run & { page: string; locale: string; jsGzip: number };

async function audit(port: number, url: string, name: string): Promise<Run> {
  const result = await lighthouse(
    url,
    { port, output: "json", logLevel: "error" },
    {
      extends: "lighthouse:default",
      settings: {
        formFactor: "mobile",
        onlyCategories: CI ? ["accessibility", "best-practices"] : ["performance", "accessibility", "best-practices"],
        // Without the performance category nothing is timed: a quarter of the default second of
        // quiet after load (our pages start their script right after the first paint, well
        // within it) and no full-page screenshot, which no accessibility or practice audit reads.
        ...(CI
          ? {
              pauseAfterFcpMs: 250,
              pauseAfterLoadMs: 250,
              networkQuietThresholdMs: 250,
              cpuQuietThresholdMs: 250,
              disableFullPageScreenshot: true,
            }
          : {}),
      },
    },
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { categories, audits } = result.lhr;
  if (SAVE_DIR) {
    mkdirSync(SAVE_DIR, { recursive: true });
    writeFileSync(path.join(SAVE_DIR, `${name}.json`), JSON.stringify(result.lhr));
    writeFileSync(path.join(SAVE_DIR, `${name}.trace.json`), JSON.stringify(result.artifacts.Trace));
    const phases = (
      audits["lcp-breakdown-insight"]?.details as
        { items?: { items?: { subpart?: string; label?: string; duration?: number }[] }[] } | undefined
    )?.items?.[0]?.items;
    if (phases) {
      const described = phases.map((phase) => `${phase.subpart ?? phase.label} ${Math.round(phase.duration ?? 0)} ms`);
      console.log(`  ${name} LCP phases: ${described.join(", ")}`);
    }
  }
  const score = (id: string) => (categories[id]?.score == null ? null : Math.round(categories[id]!.score! * 100));
  const value = (id: string) => audits[id]?.numericValue ?? null;
  return {
    performance: score("performance"),
    accessibility: score("accessibility") ?? 0,
    bestPractices: score("best-practices") ?? 0,
    lcpMs: value("largest-contentful-paint"),
    tbtMs: value("total-blocking-time"),
    fcpMs: value("first-contentful-paint"),
    cls: value("cumulative-layout-shift"),
  };
}

/**
 * The run whose performance score (else accessibility) is the median: one real run, not a mix.
 * Runs Lighthouse could not score (e.g. NO_NAVSTART on a loaded machine) count only if all failed.
 */
function median(all: Run[]): Run {
  const scored = all.filter((run) => run.performance !== null);
  const runs = CI || scored.length === 0 ? all : scored;
  const sorted = [...runs].sort((a, b) => (a.performance ?? a.accessibility) - (b.performance ?? b.accessibility));
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Gzip bytes of every script a modern browser loads for the page: Next's chunks where the page
 * ships its runtime (a page of Next.js) (Next lists every chunk of the route in the HTML; `nomodule` polyfills
 * are skipped by every browser our browserslist names), the islands' module scripts
 * (`<script type="module" src="/islands/...">`, components/island.tsx) on a hosted page, and
 * every inline script (an island's JSON config included: the page ships it too).
 */
async function scriptBytes(url: string): Promise<number> {
  const html = await (await fetch(url)).text();
  const sources = [...html.matchAll(/<script\b([^>]*)>/g)]
    .filter((match) => !/\bnomodule\b/i.test(match[1]!))
    .map((match) => /\bsrc="([^"]+)"/.exec(match[1]!)?.[1]?.replaceAll("&amp;", "&"))
    .filter((source): source is string => Boolean(source));
  const inline = [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1]!);
  let total = inline.reduce((sum, code) => sum + gzipSync(code).byteLength, 0);
  for (const source of new Set(sources)) {
    const response = await fetch(new URL(source, url));
    // A missing script (an island not built) must fail here, not count as its 404 page's bytes.
    if (!response.ok) throw new Error(`${url}: its script ${source} answered ${response.status}`);
    total += gzipSync(Buffer.from(await response.arrayBuffer()), { level: 9 }).byteLength;
  }
  return total;
}

function print(row: Row) {
  const cells = [
    row.page.padEnd(8),
    row.locale,
    `perf ${String(row.performance ?? "-").padStart(3)}`,
    `LCP ${fmt(row.lcpMs)}`,
    `TBT ${fmt(row.tbtMs)}`,
    `FCP ${fmt(row.fcpMs)}`,
    `CLS ${row.cls === null ? "-" : row.cls.toFixed(3)}`,
    `a11y ${row.accessibility}`,
    `bp ${row.bestPractices}`,
    `JS ${kb(row.jsGzip)} KB gz`,
  ];
  console.log(cells.join(" | "));
}

const fmt = (ms: number | null) => (ms === null ? "     -" : `${Math.round(ms)} ms`.padStart(7));
const kb = (bytes: number) => (bytes / 1024).toFixed(1);

// ---- the gateway, a merchant, and one payment per page ----

async function startGateway(): Promise<ChildProcess> {
  await recreateDatabase(DATABASE_URL);
  // `npm start`'s own entry: prepares (build when stale, migrate), then serves; one server is enough here.
  const server = spawn(process.execPath, ["server/serve.mjs"], {
    cwd: option("app-dir") ?? ROOT,
    stdio: ["ignore", "ignore", "inherit"],
    // Its own process group: stopping it stops the Next.js server it starts, too.
    detached: true,
    env: {
      ...process.env,
      PORT: String(PORT),
      DATABASE_URL,
      PUBLIC_BASE_URL: BASE_URL,
      APP_ENV: "sandbox",
      LOG_LEVEL: "warn",
      GATEWAY_BACKGROUND_JOBS: "off",
      WEB_CONCURRENCY: "1",
    },
  });
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error("the gateway stopped while starting");
    try {
      if ((await fetch(`${BASE_URL}/en`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  stop(server);
  throw new Error("the gateway did not start within 5 minutes");
}

async function onboard(): Promise<Merchant> {
  // No redirect URL: the return page then stays put while Lighthouse watches it.
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "scripts/merchant.ts", "create", "--name", "Lighthouse Shop", "--country", "DZA", "--json"],
    {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL, LOG_LEVEL: "silent" },
    },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as Merchant;
}

async function call<T>(shop: Merchant, route: string, body: unknown, headers: Record<string, string> = {}): Promise<T> {
  const response = await fetch(`${BASE_URL}${route}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${Buffer.from(`${shop.clientId}:${shop.clientSecret}`).toString("base64")}`,
      "content-type": "application/json",
      "x-service": shop.service,
      "x-platform": "API",
      ...headers,
    },
    body: JSON.stringify(body),
  });
  const payload = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${route}: ${response.status} ${JSON.stringify(payload)}`);
  return payload.data;
}

async function pageUrl(shop: Merchant, page: PageName, locale: Locale): Promise<string> {
  if (page === "link") {
    const link = await call<{ id: string }>(shop, "/api/v1/payment-links", {
      title: "Handmade leather bag",
      description: "Made to order in Tlemcen; ships within a week.",
      amount: 1250.75,
      currency: "DZD",
      countryCode: "DZA",
    });
    return `${BASE_URL}/${locale}/l/${link.id}`;
  }
  const { paymentId, checkoutUrl } = await call<{ paymentId: string; checkoutUrl: string }>(
    shop,
    "/api/v1/payments/intents?countryCode=DZA",
    {
      actionId: `lighthouse-${page}-${locale}-${Date.now()}`,
      amount: 1250.75,
      actionCurrencyCode: "DZD",
      actionCountryCode: "DZA",
      userId: `+21355${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`,
      captureMethod: "DIRECT",
      ...(page === "qr" || page === "return" ? { transactionType: "QR_CODE" } : {}),
    },
  );
  // The checkout page in the language asked for (checkoutUrl itself follows the browser's).
  if (page === "checkout") return `${BASE_URL}/${locale}${new URL(checkoutUrl).pathname}${new URL(checkoutUrl).search}`;
  const xLocale = { en: "en_US", fr: "fr_FR", ar: "ar_DZ" }[locale];
  const proceeded = await call<{ metadata: { payUrl?: string; qrPageUrl?: string } }>(
    shop,
    `/api/v1/payments/intents/${paymentId}/proceed`,
    // "redirect": the page before SATIM's, with its checklist (terms, the anti-bot island).
    { paymentMethodCode: page === "card" ? "CARD_PROVIDER" : page === "redirect" ? "SATIM" : "WALLET_V2" },
    { "x-locale": xLocale },
  );
  switch (page) {
    case "otp":
    case "card":
    case "redirect":
      return proceeded.metadata.payUrl!;
    case "qr":
      return proceeded.metadata.qrPageUrl!;
    case "return":
      // A settled QR payment: its return page shows the outcome (no redirect URL, so it stays).
      await call(shop, `/api/v1/sandbox/payments/${paymentId}/qr`, { outcome: "approve" });
      return proceeded.metadata.qrPageUrl!.replace("/pay/qr/", "/pay/return/");
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
