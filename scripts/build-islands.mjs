// Builds the hosted pages' islands (components/islands/<name>.ts, see components/island.tsx):
// each one bundled with what it imports into one minified ES module, named by its content hash
// so browsers may keep it forever (next.config.mjs serves /islands/* as immutable), into
// public/islands/. The manifest (island name → file name) the server reads goes to
// .islands/manifest.json. Part of `npm run build` and of npm start's build (server/start.ts);
// `npm run dev` (server/dev.mjs) builds them at start and again when one of their files changes.
//
// Every top-level .ts file of components/islands is an entry point except runtime.ts (the
// shared helpers) and tests; building a helper that no page loads costs nothing.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const ISLANDS_SOURCE_DIR = path.join(ROOT, "components/islands");
const SOURCE_DIR = ISLANDS_SOURCE_DIR;
const OUT_DIR = path.join(ROOT, "public/islands");
const MANIFEST = path.join(ROOT, ".islands/manifest.json");
const NOT_ISLANDS = new Set(["runtime.ts"]);

/** The browsers package.json's browserslist names, in esbuild's words ("chrome 111" → "chrome111"). */
function targets() {
  const { browserslist } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  return browserslist.map((entry) => entry.replace(/\s+/g, ""));
}

export async function buildIslands() {
  const entries = readdirSync(SOURCE_DIR)
    .filter(
      (file) => file.endsWith(".ts") && !file.endsWith(".d.ts") && !file.endsWith(".test.ts") && !NOT_ISLANDS.has(file),
    )
    .map((file) => ({ in: path.join(SOURCE_DIR, file), out: file.slice(0, -3) }));
  const result = await build({
    entryPoints: entries,
    outdir: OUT_DIR,
    entryNames: "[name]-[hash]",
    bundle: true,
    format: "esm",
    platform: "browser",
    target: targets(),
    minify: true,
    metafile: true,
    legalComments: "none",
    logLevel: "warning",
    // Built in memory, written once it succeeded: a failed rebuild (npm run dev) keeps serving the last one.
    write: false,
  });
  // Old hashes go: the folder holds exactly this build's files.
  rmSync(OUT_DIR, { recursive: true, force: true });
  for (const file of result.outputFiles) {
    mkdirSync(path.dirname(file.path), { recursive: true });
    writeFileSync(file.path, file.contents);
  }
  const manifest = {};
  for (const [output, meta] of Object.entries(result.metafile.outputs)) {
    if (!meta.entryPoint) continue;
    const name = path.basename(meta.entryPoint, ".ts");
    manifest[name] = path.basename(output);
  }
  mkdirSync(path.dirname(MANIFEST), { recursive: true });
  writeFileSync(MANIFEST, JSON.stringify(manifest, null, 2) + "\n");
  return manifest;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const manifest = await buildIslands();
  console.log(
    `Islands built: ${
      Object.entries(manifest)
        .map(([name, file]) => `${name} (${file})`)
        .join(", ") || "none"
    }`,
  );
}
