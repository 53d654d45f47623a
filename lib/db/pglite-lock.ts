import { openSync, readFileSync, unlinkSync, writeSync, closeSync } from "node:fs";
import path from "node:path";

/**
 * PGlite does not guard its data directory: two processes writing one directory corrupt it.
 * A pid file refuses the second opener with a message instead.
 */
export function lockPgliteDirectory(dir: string): () => void {
  const lockPath = path.join(dir, "gateway.lock");
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockPath, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const release = () => {
        try {
          if (readFileSync(lockPath, "utf8") === String(process.pid)) unlinkSync(lockPath);
        } catch {
          // Already gone.
        }
      };
      process.once("exit", release);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(readFileSync(lockPath, "utf8"));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `The embedded database in ${dir} is in use by process ${holder}. ` +
            "Stop it first, or set DATABASE_URL to share PostgreSQL.",
        );
      }
      unlinkSync(lockPath); // A stale lock from a process that died.
    }
  }
  throw new Error(`Could not lock ${dir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
