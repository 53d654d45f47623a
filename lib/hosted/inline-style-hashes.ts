import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

/**
 * CSP sources for the stylesheets the production build inlines into each page
 * (`experimental.inlineCss`): Next.js stamps no nonce on those `<style>` tags, so the policy
 * names them by hash instead. A build's stylesheets never change while it serves, so they are
 * hashed once, on the first page request. Under `next dev` nothing is inlined: no hashes.
 */
let hashes: readonly string[] | undefined;

export function inlineStyleHashes(): readonly string[] {
  if (hashes === undefined) {
    hashes =
      process.env.NODE_ENV === "production"
        ? stylesheetsOf(path.join(process.cwd(), ".next", "static")).map(sourceOf)
        : [];
  }
  return hashes;
}

function sourceOf(file: string): string {
  return `'sha256-${createHash("sha256").update(readFileSync(file)).digest("base64")}'`;
}

function stylesheetsOf(directory: string): string[] {
  let entries;
  try {
    entries = readdirSync(directory, { withFileTypes: true, recursive: true });
  } catch {
    return []; // no build here (a test importing the proxy): nothing is inlined either
  }
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".css"))
    .map((entry) => path.join(entry.parentPath, entry.name));
}
