// Builds the fast lane of /api/v1 (lib/http/api-lane.ts) and the console lane
// (lib/console-web/console-lane.ts) into .lanes/lanes.mjs, which server/serve.mjs (`npm start`)
// loads beside Next.js: one ES module bundling the operations registry, every app/api/v1 route
// file (still the home of each handler; Next.js serves them in `npm run dev`), the console pages
// of components/console/pages/console-lane-pages.ts (rendered with react-dom/server, which
// Next.js refuses inside app/) and what they import, with `@/` resolved from tsconfig.json's paths and the
// packages of node_modules left to Node (the same copies Next.js's server loads for postgres.js
// and pino). Part of `npm run build` and of npm start's build (server/start.ts).
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const API_DIR = path.join(ROOT, "app/api/v1");
const CONSOLE_DIR = path.join(ROOT, "app/[locale]/console");
export const LANES_BUNDLE = path.join(ROOT, ".lanes/lanes.mjs");

/**
 * Every route file under app/api/v1 that serves an operation, with its path as the registry
 * writes it (`[id]` → `:id`). Left out: the catch-all (`[...unknown]`, the JSON 404) and
 * /api/v1 itself, which serve no operation; Next.js answers them.
 */
export function laneRouteFiles() {
  const found = [];
  const visit = (dir, segments) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory()) {
        if (!/^\[\[?\.\.\./.test(entry)) visit(full, [...segments, entry.replace(/^\[(\w+)\]$/, ":$1")]);
      } else if (entry === "route.ts" && segments.length > 0) {
        found.push({ pattern: ["/api/v1", ...segments].join("/"), file: full });
      }
    }
  };
  visit(API_DIR, []);
  return found;
}

/** Every directory under app/[locale]/console ("payments/export"): the console lane leaves a path that is one to its own route. */
function consoleDirectories() {
  return readdirSync(CONSOLE_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.relative(CONSOLE_DIR, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort();
}

/** The lane's entry: the registry, each route file's module by its path, and the lane over them. */
function entrySource() {
  const routes = laneRouteFiles();
  const imports = routes.map((route, index) => `import * as route${index} from ${JSON.stringify(route.file)};`);
  const table = routes.map((route, index) => `  ${JSON.stringify(route.pattern)}: route${index},`);
  return [
    `import { OPERATIONS } from "@/lib/api/operations";`,
    `import { createApiLane } from "@/lib/http/api-lane";`,
    ...imports,
    `const routeModules = {\n${table.join("\n")}\n};`,
    `export const createLane = () => createApiLane({ operations: OPERATIONS, routeModules });`,
    `import { createConsoleLane } from "@/lib/console-web/console-lane";`,
    `import { CONSOLE_LANE_PAGES } from "@/components/console/pages/console-lane-pages";`,
    `export const createConsolePageLane = (distDir) => createConsoleLane({ pages: CONSOLE_LANE_PAGES, appDirectories: ${JSON.stringify(consoleDirectories())}, distDir });`,
  ].join("\n");
}

/** `outfile`: the bundle's path; another than the default only to pair two lane builds (GATEWAY_LANES_BUNDLE). */
export async function buildLanes(outfile = LANES_BUNDLE) {
  await build({
    stdin: { contents: entrySource(), resolveDir: ROOT, sourcefile: "lanes-entry.ts", loader: "ts" },
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "external",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    jsx: "automatic",
    // The pages' JSON catalogues (lib/i18n/catalogs.ts) are bundled.
    loader: { ".json": "json" },
    sourcemap: "linked",
    legalComments: "none",
    // As Next.js's build fixes it in its own bundles (proxy.ts's among them): the lane's page
    // headers (the CSP's style hashes, no 'unsafe-eval') must not follow the server's NODE_ENV.
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "warning",
  });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const out = process.argv.indexOf("--out");
  await buildLanes(out === -1 ? undefined : path.resolve(process.argv[out + 1]));
}
