// Builds the API lane of /api (lib/http/api-lane.ts) and the console lane
// (lib/console/web/console-lane.ts) into .lanes/lanes.mjs, which server/serve.mjs (`npm start`)
// and server/dev.mjs (`npm run dev`, rebuilt on edit) load beside Next.js: one ES module bundling
// the operations registry, every app/api route file (the home of each handler), the console
// pages of app/[locale]/console/_pages/console-lane-pages.ts (rendered with react-dom/server, which
// Next.js refuses inside app/), the console's stylesheet (app/globals.css through Tailwind, as
// Next.js compiles it for its pages) and what they import, with `@/` resolved from
// tsconfig.json's paths and the packages of node_modules left to Node (the same copies Next.js's
// server loads for postgres.js and pino). Part of `npm run build` and of npm start's build
// (server/start.ts).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import tailwind from "@tailwindcss/postcss";
import { build } from "esbuild";
import postcss from "postcss";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const API_DIR = path.join(ROOT, "app/api");
const CONSOLE_DIR = path.join(ROOT, "app/[locale]/console");
const STYLESHEET_SOURCE = path.join(ROOT, "app/globals.css");
export const LANES_BUNDLE = path.join(ROOT, ".lanes/lanes.mjs");

/**
 * Every route file of app/api, by its path as the lane's routers write it (`[id]` → `:id`, a
 * catch-all `[...path]` → `*path`): `operations`, those under /api/v1, which serve the operations
 * registry's paths; `others`, the rest (health, metrics, the callbacks, the sandbox's
 * simulators). Any other path (and /api/v1 itself) is the lane's own JSON 404
 * (lib/http/unknown-api-path.ts). The bundle's entry below and the tests' server
 * (tests/support/gateway-server.ts) build the API lane from this one table.
 */
export function apiRouteFiles() {
  const found = [];
  const visit = (dir, segments) => {
    for (const entry of readdirSync(dir).sort()) {
      const full = path.join(dir, entry);
      if (statSync(full).isDirectory())
        visit(full, [...segments, entry.replace(/^\[(\w+)\]$/, ":$1").replace(/^\[\.\.\.(\w+)\]$/, "*$1")]);
      else if (entry === "route.ts") found.push({ pattern: ["/api", ...segments].join("/"), file: full });
    }
  };
  visit(API_DIR, []);
  return {
    operations: found.filter((route) => route.pattern.startsWith("/api/v1/")),
    others: found.filter((route) => !route.pattern.startsWith("/api/v1/")),
  };
}

/** The route files under app/api/v1 that serve an operation (apiRouteFiles().operations). */
export function laneRouteFiles() {
  return apiRouteFiles().operations;
}

/**
 * Next.js's routes under app/[locale]/console, a directory with a page.tsx or a route.ts ("refused",
 * "actions/[action]"): the console lane leaves them to Next.js.
 */
export function consoleNextRoutes() {
  return readdirSync(CONSOLE_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && (entry.name === "page.tsx" || entry.name === "route.ts"))
    .map((entry) => path.relative(CONSOLE_DIR, entry.parentPath).split(path.sep).join("/"))
    .sort();
}

/**
 * The console's stylesheet: app/globals.css through Tailwind (postcss.config.mjs's plugin, which
 * finds the classes the sources use), minified, at an address named by its content.
 */
export async function consoleStylesheet() {
  const source = readFileSync(STYLESHEET_SOURCE, "utf8");
  const { css } = await postcss([tailwind({ base: ROOT, optimize: { minify: true } })]).process(source, {
    from: STYLESHEET_SOURCE,
  });
  const hash = createHash("sha256").update(css).digest("hex").slice(0, 16);
  return { href: `/_lanes/console.${hash}.css`, css };
}

/**
 * The lanes' entry: the registry, each route file's module by its path, the console pages and the stylesheet,
 * and the lanes over them.
 */
function entrySource(stylesheet) {
  const { operations, others } = apiRouteFiles();
  const tableOf = (name, routes) => {
    const rows = routes.map((route, index) => `  ${JSON.stringify(route.pattern)}: ${name}${index},`);
    return [
      ...routes.map((route, index) => `import * as ${name}${index} from ${JSON.stringify(route.file)};`),
      `const ${name} = {\n${rows.join("\n")}\n};`,
    ];
  };
  return [
    `import { OPERATIONS } from "@/lib/api/operations";`,
    `import { createApiLane } from "@/lib/http/api-lane";`,
    ...tableOf("routeModules", operations),
    ...tableOf("otherRouteModules", others),
    "export const createLane = () => createApiLane({ operations: OPERATIONS, routeModules, otherRouteModules });",
    `import { createConsoleLane } from "@/lib/console/web/console-lane";`,
    `import { CONSOLE_ANSWER_PAGES, CONSOLE_LANE_PAGES } from "@/app/[locale]/console/_pages/console-lane-pages";`,
    `const stylesheet = ${JSON.stringify(stylesheet)};`,
    "export const createConsolePageLane = () => " +
      "createConsoleLane({ pages: CONSOLE_LANE_PAGES, answerPages: CONSOLE_ANSWER_PAGES, " +
      `nextRoutes: ${JSON.stringify(consoleNextRoutes())}, stylesheet });`,
    // The hosted buyer pages (lib/hosted/hosted-lane.ts), the same stylesheet inlined into each.
    `import { createHostedLane } from "@/lib/hosted/hosted-lane";`,
    `import { HOSTED_LANE } from "@/app/[locale]/hosted-lane-pages";`,
    `export const createHostedPageLane = () => createHostedLane({ ...HOSTED_LANE, stylesheet });`,
  ].join("\n");
}

/** esbuild's options for the lanes' bundle at `outfile` (server/dev.mjs keeps a context of them). */
export async function lanesBuildOptions(outfile = LANES_BUNDLE) {
  return {
    stdin: {
      contents: entrySource(await consoleStylesheet()),
      resolveDir: ROOT,
      sourcefile: "lanes-entry.ts",
      loader: "ts",
    },
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
    // headers (the CSP's style hashes, no 'unsafe-eval') must not follow the server's NODE_ENV,
    // so `npm run dev` serves the lanes as `npm start` does.
    define: { "process.env.NODE_ENV": '"production"' },
    logLevel: "warning",
  };
}

/** `outfile`: the bundle's path; another than the default only to pair two lane builds (GATEWAY_LANES_BUNDLE). */
export async function buildLanes(outfile = LANES_BUNDLE) {
  await build(await lanesBuildOptions(outfile));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const out = process.argv.indexOf("--out");
  await buildLanes(out === -1 ? undefined : path.resolve(process.argv[out + 1]));
}
