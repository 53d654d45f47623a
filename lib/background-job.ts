import type { Db } from "./db/client";

/**
 * A periodic task (expiry sweep, webhook delivery, ...). Jobs must be safe to run in
 * several processes at once: they claim work in PostgreSQL (SKIP LOCKED, conditional
 * updates), never through process memory.
 */
export interface BackgroundJob {
  name: string;
  intervalMs: number;
  /**
   * Returns how many items it handled; any work done makes the loop run again at once.
   * `stopping()` turns true on shutdown: claim nothing more, finish what is claimed.
   */
  run(db: Db, control: { stopping: () => boolean }): Promise<number | void>;
}
