/**
 * Seconds to wait after failed attempt `attemptNumber` (1-based), or null when it was the last
 * one and the notification is abandoned. `schedule[i]` is the wait before attempt i + 2. The
 * wait only grows by a random 0-10 %, so retries of many notifications spread out while the
 * schedule's total (at least 24 h in production) is never shortened.
 */
export function retryDelaySeconds(options: {
  attemptNumber: number;
  schedule: readonly number[];
  random?: () => number;
}): number | null {
  const base = options.schedule[options.attemptNumber - 1];
  if (base === undefined) return null;
  return base * (1 + 0.1 * (options.random ?? Math.random)());
}
