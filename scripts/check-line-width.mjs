// `npm run lint:line-width`: no line of code over 120 characters. Prettier keeps the layout at that
// width but never breaks a string, a comment or JSX text, so a long message or SQL statement would
// creep back unseen; it is split where it is written instead. Generated files (the OpenAPI client)
// are left out, and a line whose only overflow is one URL may stay: it cannot be broken.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const WIDTH = 120;
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs)$/;
const GENERATED = new Set(["clients/typescript/schema.d.ts", "next-env.d.ts"]);
const URL_TOKEN = /\S*https?:\/\/\S+/;

const files = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], { encoding: "utf8" })
  .split("\n")
  .filter((file) => CODE.test(file) && !GENERATED.has(file));

const overflows = [];
for (const file of files) {
  let text;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    continue; // deleted in the work tree, still in the index
  }
  text.split("\n").forEach((line, index) => {
    if (line.length <= WIDTH) return;
    const withoutUrl = line.replace(URL_TOKEN, "");
    if (withoutUrl.length < line.length && withoutUrl.length <= WIDTH) return;
    overflows.push(`${file}:${index + 1}: ${line.length} characters`);
  });
}

if (overflows.length > 0) {
  console.log(overflows.join("\n"));
  console.log(`${overflows.length} lines over ${WIDTH} characters: split the comment, string or SQL where written.`);
  process.exit(1);
}
