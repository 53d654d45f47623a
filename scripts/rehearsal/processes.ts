import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { GUIDE_COMMANDS, type GuideCommand } from "./guide-commands";

const ROOT = path.resolve(import.meta.dirname, "../..");

export type Env = Record<string, string>;

export interface CommandResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A port nobody listens on now. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

// Only what a shell needs: nothing of the operator's own gateway settings leaks into the rehearsal.
const SHELL_VARIABLES = ["PATH", "HOME", "TMPDIR", "LANG", "TERM", "npm_config_cache"];

function shellEnv(env: Env): NodeJS.ProcessEnv {
  const base = Object.fromEntries(
    SHELL_VARIABLES.flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : [])),
  );
  return {
    ...base,
    NO_UPDATE_NOTIFIER: "1",
    npm_config_update_notifier: "false",
    ...env,
  } as unknown as NodeJS.ProcessEnv;
}

function bash(command: string, env: Env, detached: boolean): ChildProcess {
  return spawn("bash", ["-c", `set -euo pipefail\n${command}`], {
    cwd: ROOT,
    env: shellEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
    detached,
  });
}

/** Runs one of the guide's commands to its end; `print` echoes a variable it exported. */
export function runGuideCommand(id: GuideCommand, env: Env, options: { print?: string } = {}): Promise<CommandResult> {
  const command = options.print ? `${GUIDE_COMMANDS[id]}\nprintf '%s' "$${options.print}"` : GUIDE_COMMANDS[id];
  const child = bash(command, env, false);
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) =>
    child.on("close", (code) => resolve({ code, stdout, stderr: withoutNpmNoise(stderr) })),
  );
}

const withoutNpmNoise = (text: string) =>
  text
    .split("\n")
    .filter((line) => !line.startsWith("npm warn") && line.trim() !== "")
    .join("\n");

/** The guide's command's JSON output (npm's own header lines skipped); fails with what it said. */
export async function guideJson<T>(id: GuideCommand, env: Env): Promise<T> {
  const result = await runGuideCommand(id, env);
  if (result.code !== 0)
    throw new Error(`${id} failed (${result.code}): ${result.stderr || result.stdout}`.slice(0, 2000));
  const line = result.stdout.split("\n").find((text) => text.startsWith("{"));
  if (!line) throw new Error(`${id} printed no JSON: ${result.stdout.slice(0, 500)}`);
  return JSON.parse(line) as T;
}

export interface Served {
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts a long-running command of the guide in a process group of its own (npm, its shell and
 * node under it) and resolves once `ready` holds; stop() ends that group, by its id.
 */
export async function serveGuideCommand(
  id: GuideCommand,
  env: Env,
  ready: (output: string) => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<Served> {
  const child = bash(GUIDE_COMMANDS[id], env, true);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const served: Served = {
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        return;
      }
      const killed = setTimeout(() => {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          // already gone
        }
      }, 30_000);
      await exited;
      clearTimeout(killed);
    },
  };
  const deadline = Date.now() + timeoutMs;
  while (!(await ready(output))) {
    if (child.exitCode !== null) throw new Error(`${id} exited (${child.exitCode}):\n${output.slice(-3000)}`);
    if (Date.now() > deadline) {
      await served.stop();
      throw new Error(`${id} was not ready within ${timeoutMs / 1000} s:\n${output.slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return served;
}

/** Whether a URL answers at all (any status). */
export async function answers(url: string): Promise<boolean> {
  try {
    await (await fetch(url, { signal: AbortSignal.timeout(2_000) })).arrayBuffer();
    return true;
  } catch {
    return false;
  }
}
