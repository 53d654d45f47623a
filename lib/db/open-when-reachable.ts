import { getConfig } from "../config";
import { getDatabase, type DatabaseHandle } from "./client";
import { databaseUnavailableReason } from "./errors";

/**
 * Opens the database for a process that runs for good (the worker, `npm start`), waiting out an
 * outage instead of exiting: started while PostgreSQL restarts or fails over, it tries again
 * every second until DATABASE_START_WAIT_SECONDS have passed, then fails with the last error as
 * before. A process that exits at once is no help to its supervisor, which backs off further
 * after every exit (systemd's start limit, Kubernetes's CrashLoopBackOff up to five minutes):
 * the jobs would stay down long after the database came back. An error that is no outage (a
 * wrong password, a database that does not exist) fails at once. What it waits for goes to stderr.
 */
export async function openDatabaseWhenReachable(): Promise<DatabaseHandle> {
  const retryEveryMs = 1_000;
  const giveUpAt = Date.now() + getConfig().DATABASE_START_WAIT_SECONDS * 1_000;
  let lastSaid = 0;
  for (;;) {
    try {
      return await getDatabase();
    } catch (error) {
      const reason = databaseUnavailableReason(error);
      if (reason === undefined || Date.now() + retryEveryMs > giveUpAt) throw error;
      // The first wait at once (a wrong address shows without delay), then every 10 s.
      if (lastSaid === 0 || Date.now() - lastSaid >= 10_000) {
        const secondsLeft = Math.ceil((giveUpAt - Date.now()) / 1_000);
        console.error(
          `Waiting for the database (${reason}); giving up in ${secondsLeft} s (DATABASE_START_WAIT_SECONDS).`,
        );
        lastSaid = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, retryEveryMs));
    }
  }
}
