import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildGateway, needsBuild } from "../../scripts/lib/gateway-build";

const ROOT = path.resolve(import.meta.dirname, "../..");

export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Builds the production bundle when it is stale, one test file at a time: files run in parallel
 * workers, and two `next build`s into one .next would each break the other. The lock is a
 * directory named after this Vitest run (the workers' parent), so a run that died holding it
 * leaves nothing that blocks the next one.
 */
export async function ensureGatewayBuilt(): Promise<void> {
  const lock = path.join(tmpdir(), `gateway-test-build-${process.ppid}`);
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    if (!needsBuild()) return;
    const { status, output } = buildGateway("pipe");
    if (status !== 0) throw new Error(`the build failed (${status}):\n${output.slice(-4000)}`);
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface SpawnedGateway {
  process: ChildProcess;
  output: () => string;
}

/**
 * The real `npm start` server entry (server/serve.mjs, one serving process that also runs the
 * background jobs) on the built bundle, as its own OS process; resolves once it listens.
 */
export async function spawnGateway(port: number, env: Record<string, string>): Promise<SpawnedGateway> {
  await ensureGatewayBuilt();
  let output = "";
  const child = spawn(process.execPath, ["server/serve.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      WEB_CONCURRENCY: "1",
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 600_000;
  while (!/listening on/.test(output)) {
    if (child.exitCode !== null) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      throw new Error(`the gateway exited (${child.exitCode}):\n${output}`);
    }
    if (Date.now() > deadline) throw new Error(`the gateway did not start:\n${output.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { process: child, output: () => output };
}

/** Polls `probe` until it holds; fails with `what` after `timeoutMs`. */
export async function waitFor(what: string, probe: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}`);
}
