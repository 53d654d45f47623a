import { isDatabaseUnavailable } from "./errors";

/**
 * Opens the database for a process that runs for good (the worker, `npm start`), waiting out an
 * outage instead of exiting: started while PostgreSQL restarts or fails over, it tries again
 * every second until `waitSeconds` have passed, then fails with the last error as before. A
 * process that exits at once is no help to its supervisor, which backs off further after every
 * exit (systemd's start limit, Kubernetes's CrashLoopBackOff up to five minutes): the jobs would
 * stay down long after the database came back. An error that is no outage (a wrong password, a
 * database that does not exist) fails at once.
 */
export async function openWhenReachable<T>(
  open: () => Promise<T>,
  options: { waitSeconds: number; say: (line: string) => void; retryEveryMs?: number },
): Promise<T> {
  const retryEveryMs = options.retryEveryMs ?? 1_000;
  const giveUpAt = Date.now() + options.waitSeconds * 1_000;
  let lastSaid = 0;
  for (;;) {
    try {
      return await open();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() + retryEveryMs > giveUpAt) throw error;
      // The first wait at once (a wrong address shows without delay), then every 10 s.
      if (lastSaid === 0 || Date.now() - lastSaid >= 10_000) {
        const secondsLeft = Math.ceil((giveUpAt - Date.now()) / 1_000);
        options.say(`Waiting for the database (${reasonOf(error)}); giving up in ${secondsLeft} s (DATABASE_START_WAIT_SECONDS).`);
        lastSaid = Date.now();
      }
      await new Promise((resolve) => setTimeout(resolve, retryEveryMs));
    }
  }
}

/** The code an outage error carries (ECONNREFUSED, 57P03...), through drizzle's and Node's wrappers. */
function reasonOf(error: unknown): string {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const { code, errors, cause } = current as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof code === "string" && code !== "") return code;
    current = Array.isArray(errors) && errors.length > 0 ? errors[0] : cause;
  }
  return "unreachable";
}
