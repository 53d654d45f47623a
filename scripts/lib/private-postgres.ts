import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/**
 * A PostgreSQL cluster of one's own in a temporary directory, to stop, restart or kill without
 * touching the shared server: `initdb` as the `postgres` user when run as root, `pg_ctl` to
 * start and stop it on a port of the caller's range. Used by the database outage test and by
 * `npm run chaos`.
 */
export interface PrivatePostgres {
  url(database: string): string;
  port: number;
  dataDir: string;
  start(): void;
  /** `fast` rolls back and disconnects clients (they see 57P01); `immediate` is a crash. */
  stop(mode?: "fast" | "immediate"): void;
  destroy(): void;
}

function binDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const version of versions) {
    const bin = path.join(root, version, "bin");
    if (existsSync(path.join(bin, "pg_ctl"))) return bin;
  }
  throw new Error("PostgreSQL server binaries (pg_ctl, initdb) not found under /usr/lib/postgresql");
}

function asPostgres(command: string, args: string[]): void {
  const isRoot = process.getuid?.() === 0;
  const result = isRoot
    ? spawnSync("runuser", ["-u", "postgres", "--", command, ...args], { encoding: "utf8" })
    : spawnSync(command, args, { encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`${path.basename(command)} ${args.join(" ")} failed: ${result.stderr || result.stdout}`);
  }
}

export function createPrivatePostgres(options: { port: number; prefix?: string }): PrivatePostgres {
  const bin = binDir();
  const dataDir = mkdtempSync(path.join(tmpdir(), options.prefix ?? "gateway-pg-"));
  chmodSync(dataDir, 0o777);
  if (process.getuid?.() === 0) execFileSync("chown", ["postgres:postgres", dataDir]);
  asPostgres(path.join(bin, "initdb"), ["-D", dataDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
  const logFile = path.join(dataDir, "server.log");
  const serverSettings = "-c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200";
  const serverOptions = `-p ${options.port} -k ${dataDir} ${serverSettings}`;
  const cluster: PrivatePostgres = {
    port: options.port,
    dataDir,
    url: (database) => `postgres://postgres@127.0.0.1:${options.port}/${database}`,
    start() {
      asPostgres(path.join(bin, "pg_ctl"), [
        "-D",
        dataDir,
        "-o",
        serverOptions,
        "-l",
        logFile,
        "-w",
        "-t",
        "60",
        "start",
      ]);
    },
    stop(mode = "fast") {
      asPostgres(path.join(bin, "pg_ctl"), ["-D", dataDir, "-m", mode, "-w", "-t", "60", "stop"]);
    },
    destroy() {
      try {
        cluster.stop("immediate");
      } catch {
        // Already stopped.
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return cluster;
}
