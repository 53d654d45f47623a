import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIGURATION_VARIABLES } from "@/lib/config";
import { nextAttemptDelayMs } from "@/lib/provider-operations/run-provider-operation";
import { providerReconciliationJob } from "@/lib/provider-operation-registry/reconcile-provider-operations";
import { GUIDE_COMMANDS } from "../../scripts/rehearsal/guide-commands";

const ROOT = path.resolve(import.meta.dirname, "../..");
const guide = readFileSync(path.join(ROOT, "docs/going-live.md"), "utf8");

/** The lines of the guide's fenced blocks of one kind (```sh, ```env), comments and blank lines left out. */
function fencedLines(kind: string): string[] {
  const blocks = [...guide.matchAll(new RegExp("^[ \\t]*```" + kind + "\\n([\\s\\S]*?)^[ \\t]*```", "gm"))];
  return blocks.flatMap((block) =>
    block[1]!
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "" && !line.startsWith("#")),
  );
}

describe("docs/going-live.md", () => {
  it("shows exactly the commands npm run rehearse runs, each once, as written", () => {
    const shown = fencedLines("sh");
    expect(new Set(shown).size).toBe(shown.length);
    expect([...shown].sort()).toEqual(Object.values(GUIDE_COMMANDS).sort());
  });

  it("sets only variables the configuration reads", () => {
    const names = fencedLines("env").map((line) => line.split("=")[0]!);
    expect(names.length).toBeGreaterThan(0);
    expect(names.filter((name) => !CONFIGURATION_VARIABLES.includes(name))).toEqual([]);
  });

  it("states the wallet reconciliation's timing as the code has it", () => {
    expect(providerReconciliationJob.intervalMs).toBe(2_000);
    expect(guide).toContain("every 2 seconds");
    expect(nextAttemptDelayMs(1)).toBe(5_000);
    expect(guide).toContain("**5 seconds** after the failure");
    expect(nextAttemptDelayMs(30)).toBe(10 * 60_000);
    expect(guide).toContain("**10 minutes**");
  });

  it("says the sandbox wallet's code when it stands in for an operator, and shows the rehearsal's own printout", () => {
    expect(guide).toContain("its\none-time code is always **123456**");
    expect(guide).not.toContain("REHEARSAL_PRINTOUT");
    expect(guide).toMatch(/rehearsal: (\d+) of \1 steps passed/);
  });

  it("is linked from the README", () => {
    expect(readFileSync(path.join(ROOT, "README.md"), "utf8")).toContain("[docs/going-live.md](docs/going-live.md)");
  });
});
