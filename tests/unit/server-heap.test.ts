import { describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript module of npm start's entry, without type declarations
import { heapGrowthPercent, serverExecArgv } from "../../scripts/server-heap.mjs";

describe("the heap settings npm start gives its servers", () => {
  it("gives 32 MB semi-spaces, ahead of the primary's own Node arguments", () => {
    expect(serverExecArgv("", [])).toEqual(["--max-semi-space-size=32"]);
    expect(serverExecArgv("--enable-source-maps", ["--cpu-prof"])).toEqual(["--max-semi-space-size=32", "--cpu-prof"]);
  });

  it("leaves the young generation to an operator who sized it, in NODE_OPTIONS or on the command line", () => {
    expect(serverExecArgv("--max-semi-space-size=16", [])).toEqual([]);
    expect(serverExecArgv("", ["--max_semi_space_size=64"])).toEqual(["--max_semi_space_size=64"]);
  });

  it("grows the old generation by 100% unless GATEWAY_HEAP_GROWTH_PERCENT says otherwise (0: V8's own)", () => {
    expect(heapGrowthPercent({})).toBe(100);
    expect(heapGrowthPercent({ GATEWAY_HEAP_GROWTH_PERCENT: "50" })).toBe(50);
    expect(heapGrowthPercent({ GATEWAY_HEAP_GROWTH_PERCENT: "0" })).toBe(0);
    expect(() => heapGrowthPercent({ GATEWAY_HEAP_GROWTH_PERCENT: "double" })).toThrow(/whole number from 0 to 1000 \(got "double"\)/);
    expect(() => heapGrowthPercent({ GATEWAY_HEAP_GROWTH_PERCENT: "-5" })).toThrow(/whole number/);
  });
});
