import { readFileSync } from "node:fs";
import path from "node:path";

/**
 * Where the built islands are: scripts/build-islands.mjs writes each island's content-hashed
 * file to public/islands/ and this manifest (island name → file name) beside the build, out of
 * the public folder. Read at run time, not imported, so a fresh clone type-checks before any build.
 */
export const ISLAND_MANIFEST_PATH = path.join(".islands", "manifest.json");
export const ISLANDS_URL_PATH = "/islands/";

let manifest: Readonly<Record<string, string>> | undefined;

/** The address of island `name`'s script; throws when the islands were not built (a build step was skipped). */
export function islandScriptPath(name: string): string {
  // A build never changes while it serves; under `next dev` the islands may be rebuilt.
  if (manifest === undefined || process.env.NODE_ENV !== "production") manifest = readManifest();
  const file = manifest[name];
  if (!file) throw new Error(`island "${name}" is not built: run npm run build (scripts/build-islands.mjs)`);
  return ISLANDS_URL_PATH + file;
}

function readManifest(): Record<string, string> {
  try {
    return JSON.parse(readFileSync(path.join(process.cwd(), ISLAND_MANIFEST_PATH), "utf8")) as Record<string, string>;
  } catch {
    return {};
  }
}
