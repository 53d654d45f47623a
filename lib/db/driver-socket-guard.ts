/**
 * postgres.js 3.4.9, the newest release, can write to a connection's socket after the socket
 * closed and was set to null (`nextWrite`: `socket.write` on null; porsager/postgres#1066 and
 * #1154, fixed only in the unmerged pull requests #1168 and #1176). It shows when PostgreSQL
 * restarts or a connection drops under load, in two ways:
 *
 * - from the `setImmediate` that flushes small writes: thrown from a timer, no caller can catch
 *   it and Node ends the process, and every request in flight on that gateway with it;
 * - synchronously inside the driver's `execute`, which rejects that query with the TypeError:
 *   the route then saw an unknown error and answered 500 instead of 503.
 *
 * Either way the write was for a connection that is already gone: the driver has rejected, or
 * rejects, that connection's queries and opens a new connection for the next one. So the error
 * is a connection failure like CONNECTION_CLOSED: `isDatabaseUnavailable` classes it so (503),
 * and the process-level guard below swallows the timer's copy of it, and only that error.
 */
export function isDriverNullSocketWrite(error: unknown): boolean {
  return (
    error instanceof TypeError &&
    /\(reading 'write'\)|evaluating 'socket\.write'/.test(error.message) &&
    /[\\/]postgres[\\/](cjs[\\/])?src[\\/]connection\.js/.test(error.stack ?? "")
  );
}

const guard = globalThis as unknown as { gatewayDriverSocketGuard?: { swallowed: number } };

/** How many of those errors this process's guard has swallowed (printed by `npm run chaos`). */
export function driverNullSocketWrites(): number {
  return guard.gatewayDriverSocketGuard?.swallowed ?? 0;
}

/**
 * Installs, once per process, the `uncaughtException` listener that swallows the driver's
 * null-socket write. Any other uncaught exception ends the process as Node would without a
 * listener (the error printed, exit code 1), unless another listener takes care of it.
 */
export function installDriverSocketGuard(): void {
  if (guard.gatewayDriverSocketGuard) return;
  const state = { swallowed: 0 };
  guard.gatewayDriverSocketGuard = state;
  process.on("uncaughtException", function driverSocketGuard(error) {
    if (isDriverNullSocketWrite(error)) {
      state.swallowed += 1;
      process.emitWarning(
        "postgres.js wrote to a closed connection (porsager/postgres#1154); the connection is replaced",
        {
          code: "GATEWAY_PG_NULL_SOCKET",
        },
      );
      return;
    }
    if (process.listenerCount("uncaughtException") > 1) return;
    console.error(error);
    process.exit(1);
  });
}
