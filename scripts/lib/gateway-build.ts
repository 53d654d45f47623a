// The production bundle `npm start` serves: Next.js's build, the hosted pages' islands and the
// lanes' bundle, rebuilt when any source is newer than the last build.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const nextBin = "node_modules/next/dist/bin/next";

// components/ holds the islands' sources (components/islands) as well as the pages' parts.
const BUILD_INPUTS = [
  "app",
  "lib",
  "components",
  "messages",
  "public",
  "proxy.ts",
  "instrumentation.ts",
  "mount-simulators.ts",
  "simulators",
  "next.config.mjs",
  "postcss.config.mjs",
  "package-lock.json",
  "scripts/build-islands.mjs",
  "server/build-lanes.mjs",
];
/** Outputs of the islands' build (scripts/build-islands.mjs), which Next's build does not make. */
const ISLANDS_MANIFEST = ".islands/manifest.json";
/** Output of the lanes' build (the API lane and the console lane) (server/build-lanes.mjs). */
const LANES_BUNDLE = ".lanes/lanes.mjs";

/** A build older than any source file would serve stale code after a pull. */
export function needsBuild(): boolean {
  const stamp = ".next/BUILD_ID";
  if (!existsSync(stamp) || !existsSync(ISLANDS_MANIFEST) || !existsSync(LANES_BUNDLE)) return true;
  const builtAt = statSync(stamp).mtimeMs;
  const newerThanBuild = (entry: string): boolean => {
    if (!existsSync(entry)) return false;
    const stats = statSync(entry);
    if (!stats.isDirectory()) return stats.mtimeMs > builtAt;
    return readdirSync(entry).some((child) => newerThanBuild(path.join(entry, child)));
  };
  return BUILD_INPUTS.some(newerThanBuild);
}

/**
 * The same steps as `npm run build`: the islands and the API lane first, then Next.js. Returns the failing
 * step's exit status, or 0.
 */
export function buildGateway(stdio: "inherit" | "pipe" = "inherit"): { status: number; output: string } {
  for (const step of [["scripts/build-islands.mjs"], ["server/build-lanes.mjs"], [nextBin, "build"]]) {
    const build = spawnSync(process.execPath, step, { stdio, maxBuffer: 64 * 1024 * 1024 });
    if (build.status !== 0) return { status: build.status ?? 1, output: `${build.stdout ?? ""}${build.stderr ?? ""}` };
  }
  return { status: 0, output: "" };
}
