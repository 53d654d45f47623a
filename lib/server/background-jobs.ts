import type { Db } from "../db/client";
import { getDb } from "../db/client";
import { logger } from "../log";

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

export interface RunningJobs {
  stop(): Promise<void>;
}

export function startBackgroundJobs(jobs: BackgroundJob[]): RunningJobs {
  let stopped = false;
  const control = { stopping: () => stopped };
  const loops = jobs.map(async (job) => {
    while (!stopped) {
      let handled: number | void = 0;
      try {
        handled = await job.run(await getDb(), control);
      } catch (error) {
        logger.error({ err: error, job: job.name }, "background job failed");
      }
      // Work left over: go again at once instead of idling through a backlog.
      if (!handled) await sleep(job.intervalMs, () => stopped);
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

async function sleep(ms: number, isStopped: () => boolean) {
  const step = Math.min(ms, 200);
  for (let waited = 0; waited < ms && !isStopped(); waited += step) {
    await new Promise((resolve) => setTimeout(resolve, step));
  }
}
