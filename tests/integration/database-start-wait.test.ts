import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recreateDatabase } from "@/scripts/lib/recreate-database";

/**
 * `npm run worker` started while PostgreSQL cannot be reached (a restart, a failover): it waits
 * for it (DATABASE_START_WAIT_SECONDS) instead of exiting. The database sits behind a port on
 * which nothing listens at first; a TCP relay to the shared server opens there later.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");
const DATABASE = `gateway_start_wait_${process.pid}`;
const TIMEOUT = 120_000;
let port: number;
let relay: net.Server | undefined;

beforeAll(async () => {
  await recreateDatabase(`postgres://postgres@127.0.0.1:5432/${DATABASE}`);
  port = await freePort();
});
afterAll(async () => {
  relay?.close();
  await recreateDatabase(`postgres://postgres@127.0.0.1:5432/${DATABASE}`, { dropOnly: true });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function relayToSharedServer(): Promise<net.Server> {
  const server = net.createServer((client) => {
    const upstream = net.connect(5432, "127.0.0.1");
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

interface Worker {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  exited: Promise<number | null>;
}

function startWorker(env: Record<string, string>): Worker {
  // Node itself (as npm start runs its TypeScript): the signals below reach the worker, not a launcher.
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts"], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  return { child, output: () => ({ stdout, stderr }), exited };
}

async function until(condition: () => boolean, what: string, withinMs = 60_000) {
  const deadline = Date.now() + withinMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("npm run worker while the database cannot be reached", () => {
  it(
    "says it is waiting, and runs its jobs once the database answers",
    async () => {
      const worker = startWorker({
        DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/${DATABASE}`,
        DATABASE_START_WAIT_SECONDS: "60",
      });
      try {
        await until(
          () => worker.output().stderr.includes("Waiting for the database (ECONNREFUSED)"),
          "the waiting line",
        );
        // Another second on: still there, not crashed.
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        expect(worker.child.exitCode).toBeNull();
        relay = await relayToSharedServer();
        await until(
          () => worker.output().stdout.includes("Worker (sandbox, postgres) running: webhook-delivery"),
          "the worker to run",
        );
        worker.child.kill("SIGTERM");
        expect(await worker.exited).toBe(0);
        expect(worker.output().stderr).toMatch(/giving up in \d+ s \(DATABASE_START_WAIT_SECONDS\)/);
      } finally {
        if (worker.child.exitCode === null) worker.child.kill("SIGKILL");
        relay?.close();
        relay = undefined;
      }
    },
    TIMEOUT,
  );

  it(
    "gives up with the one-sentence error once DATABASE_START_WAIT_SECONDS have passed",
    async () => {
      const started = Date.now();
      const worker = startWorker({
        DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/${DATABASE}`,
        DATABASE_START_WAIT_SECONDS: "2",
      });
      expect(await worker.exited).toBe(1);
      const { stderr } = worker.output();
      expect(stderr).toContain("Waiting for the database (ECONNREFUSED); giving up in 2 s");
      expect(stderr).toContain(
        "Could not reach the database at DATABASE_URL (ECONNREFUSED). Is it running and is the address right?",
      );
      expect(Date.now() - started).toBeGreaterThan(1_000);
    },
    TIMEOUT,
  );

  it(
    "does not wait when the database answers with an error that is no outage (no such database)",
    async () => {
      const worker = startWorker({
        DATABASE_URL: "postgres://postgres@127.0.0.1:5432/gateway_no_such_database",
        DATABASE_START_WAIT_SECONDS: "60",
      });
      expect(await worker.exited).toBe(1);
      const { stderr } = worker.output();
      expect(stderr).not.toContain("Waiting for the database");
      expect(stderr).toContain('database "gateway_no_such_database" does not exist');
    },
    TIMEOUT,
  );
});
