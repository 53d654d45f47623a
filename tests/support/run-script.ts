import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `<script> ...args` under tsx from the repository root, as `npm run merchant -- ...` does;
 * `undefined` unsets a variable. Node with tsx's loader, not `npx tsx`: the same code, without
 * npx and tsx's own launcher process (0.7 s of CPU a run, and the suite runs dozens).
 */
export async function runScript(
  script: string,
  args: string[],
  env: Record<string, string | undefined> = {},
): Promise<ScriptResult> {
  const child = spawn(process.execPath, ["--import", "tsx", script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, stdout, stderr };
}
