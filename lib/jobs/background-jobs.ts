import type { BackgroundJob } from "../background-job";
import { getDb } from "../db/client";
import { logger } from "../log";
import { metrics } from "../metrics/gateway-metrics";

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
        metrics.jobLastSuccess.set({ job: job.name }, Date.now() / 1000);
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
