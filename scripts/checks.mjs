// `npm run checks`: the static checks `npm test` starts with (types, formatting, lines of at most 120
// characters, the wallet protocol's description, the import rules), all at once: each alone leaves one of the 2 cores
// idle. Each check's output is shown whole once it ends; the run fails if any check fails.
import { spawn } from "node:child_process";

const CHECKS = ["typecheck", "format:check", "lint:line-width", "lint:wallet-protocol", "lint:imports"];

function run(name) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn("npm", ["run", "--silent", name], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("close", (code) => resolve({ name, code, output, seconds: (performance.now() - started) / 1000 }));
  });
}

const results = await Promise.all(CHECKS.map((name) => run(name)));
for (const { name, code, output, seconds } of results) {
  console.log(`== ${name}: ${code === 0 ? "passed" : `FAILED (exit ${code})`} in ${seconds.toFixed(0)} s`);
  if (output.trim()) console.log(output.trimEnd());
}
process.exit(results.every(({ code }) => code === 0) ? 0 : 1);
