import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "@/lib/db/errors";
import { toErrorResponse } from "@/lib/http/respond";

const ROOT = path.resolve(import.meta.dirname, "../..");

/** The stack frame under that TypeError's message. */
const NEXT_WRITE_FRAME = "    at Immediate.nextWrite (file:///app/node_modules/postgres/src/connection.js:255:22)";
/** The TypeError postgres.js 3.4.9 throws when it writes to a connection that already closed. */
const NULL_SOCKET_WRITE = `(() => {
  const error = new TypeError("Cannot read properties of null (reading 'write')");
  error.stack = error.message + "\\n${NEXT_WRITE_FRAME}";
  return error;
})()`;
function nullSocketWrite(): TypeError {
  const error = new TypeError("Cannot read properties of null (reading 'write')");
  error.stack = `${error.message}\n${NEXT_WRITE_FRAME}`;
  return error;
}

/** A Node process that installs the guard, then throws `thrown` from a timer, as the driver does. */
function processThrowing(thrown: string) {
  const script = `
    import { installDriverSocketGuard } from "./lib/db/driver-socket-guard.ts";
    installDriverSocketGuard();
    setImmediate(() => { throw ${thrown}; });
    setTimeout(() => console.log("still serving"), 50);`;
  return spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: ROOT,
    encoding: "utf8",
  });
}

describe("postgres.js writing to a closed connection (porsager/postgres#1154)", () => {
  it("answers 503 service_unavailable, not 500, when a query fails with it", async () => {
    const wrapped = Object.assign(new Error("Failed query: select 1"), { cause: nullSocketWrite() });
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    const response = toErrorResponse(wrapped, "req_1");
    expect(response.status).toBe(503);
    expect((await response.json()).error.name).toBe("service_unavailable");
  });

  it("leaves the same message from anywhere else an unexpected error", () => {
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of null (reading 'write')"))).toBe(false);
  });

  it("keeps the process serving when the driver throws it from a timer", () => {
    const result = processThrowing(NULL_SOCKET_WRITE);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("still serving");
  });

  it("still ends the process on any other uncaught exception", () => {
    const result = processThrowing(`new RangeError("a real bug")`);
    expect(result.status).toBe(1);
    expect(result.stdout).not.toContain("still serving");
    expect(result.stderr).toContain("a real bug");
  });
});
