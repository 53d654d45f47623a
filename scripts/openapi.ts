import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { buildOpenApiDocument } from "../lib/api/openapi";

/**
 * `npm run openapi` writes openapi.json from the operations registry; `npm run openapi -- --check`
 * fails when the committed file is not what the code generates (CI runs the check).
 */
const file = path.resolve(import.meta.dirname, "../openapi.json");
const generated = `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;

if (process.argv.includes("--check")) {
  let committed = "";
  try {
    committed = readFileSync(file, "utf8");
  } catch {
    // Missing counts as stale.
  }
  if (committed !== generated) {
    console.error("openapi.json is stale: run `npm run openapi` and commit the result.");
    process.exit(1);
  }
  console.log("openapi.json is current.");
} else {
  writeFileSync(file, generated);
  console.log(`wrote ${path.relative(process.cwd(), file)} (${generated.length} bytes)`);
}
