/** Each step of the rehearsal, printed as it ends: its name, what it did, its outcome and its time. */
interface StepRecord {
  name: string;
  passed: boolean;
  ms: number;
}

const done: StepRecord[] = [];

/**
 * Runs one step and prints it. `run` answers the outcome text, or a value and the outcome text;
 * a step that throws prints its failure and stops the rehearsal.
 */
export async function step<T>(
  name: string,
  what: string,
  run: () => Promise<string | readonly [T, string]>,
): Promise<T> {
  const started = Date.now();
  try {
    const answer = await run();
    const [value, outcome] = typeof answer === "string" ? [undefined as T, answer] : answer;
    const ms = Date.now() - started;
    done.push({ name, passed: true, ms });
    console.log(`ok    ${name.padEnd(22)} ${what}\n      ${"".padEnd(22)} → ${outcome} (${(ms / 1000).toFixed(1)} s)`);
    return value;
  } catch (error) {
    const ms = Date.now() - started;
    done.push({ name, passed: false, ms });
    console.log(
      `FAIL  ${name.padEnd(22)} ${what}\n` +
        `      ${"".padEnd(22)} → ${error instanceof Error ? error.message : String(error)}`,
    );
    throw error;
  }
}

export function summary(totalMs: number): string {
  const passed = done.filter((record) => record.passed).length;
  return `rehearsal: ${passed} of ${done.length} steps passed in ${(totalMs / 1000).toFixed(1)} s`;
}
