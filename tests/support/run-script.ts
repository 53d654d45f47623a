import { spawn } from "node:child_process";
import path from "node:path";

const ROOT = path.resolve(import.meta.dirname, "../..");

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npx tsx <script> ...args` from the repository root as an operator would; `undefined` unsets a variable. */
export async function runScript(script: string, args: string[], env: Record<string, string | undefined> = {}): Promise<ScriptResult> {
  const child = spawn("npx", ["tsx", script, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  // npm's own configuration warnings are not the CLI's output.
  stderr = stderr
    .split("\n")
    .filter((line) => !line.startsWith("npm warn"))
    .join("\n");
  return { code, stdout, stderr };
}
