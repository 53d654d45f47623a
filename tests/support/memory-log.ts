import { Writable } from "node:stream";

type LogModule = typeof import("@/lib/log");

/**
 * A `vi.mock("@/lib/log", ...)` factory body: the real log module, whose logger writes each
 * JSON line into `lines` instead of stdout, so a test can read what the gateway logged.
 * vi.mock hoists its factory above imports, so call it through a dynamic import:
 *   vi.mock("@/lib/log", async (original) =>
 *     (await import("../support/memory-log")).memoryLog(original, logged.lines, "info"));
 */
export async function memoryLog(
  importOriginal: () => Promise<unknown>,
  lines: string[],
  level: string,
): Promise<LogModule> {
  const actual = (await importOriginal()) as LogModule;
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { ...actual, logger: actual.createLogger({ destination, level }) };
}
