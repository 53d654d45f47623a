import { describe, expect, it } from "vitest";
// @ts-expect-error plain JavaScript module of npm start's entry, without type declarations
import { describeServerHeap, heapGrowthPercent, serverExecArgv } from "../../scripts/server-heap.mjs";

describe("the heap settings npm start gives its servers", () => {
  it("gives 32 MB semi-spaces and a 64 MB initial old generation, ahead of the primary's own Node arguments", () => {
    expect(serverExecArgv("", [])).toEqual(["--max-semi-space-size=32", "--initial-old-space-size=64"]);
    expect(serverExecArgv("--enable-source-maps", ["--cpu-prof"])).toEqual([
      "--max-semi-space-size=32",
      "--initial-old-space-size=64",
      "--cpu-prof",
    ]);
  });

  it("leaves the young generation to an operator who sized it, in NODE_OPTIONS or on the command line", () => {
    expect(serverExecArgv("--max-semi-space-size=16", [])).toEqual(["--initial-old-space-size=64"]);
    expect(serverExecArgv("", ["--max_semi_space_size=64"])).toEqual(["--initial-old-space-size=64", "--max_semi_space_size=64"]);
  });

  it("leaves the initial old generation to an operator who sized it or the initial heap", () => {
    expect(serverExecArgv("", ["--initial-old-space-size=256"])).toEqual(["--max-semi-space-size=32", "--initial-old-space-size=256"]);
    expect(serverExecArgv("", ["--initial_heap_size=512"])).toEqual(["--max-semi-space-size=32", "--initial_heap_size=512"]);
    expect(describeServerHeap("", ["--initial-heap-size=512"], 0)).toBe(
      "V8's young generation, --initial-heap-size=512, old generation growth V8's",
    );
  });

  it("grows the old generation by 100% unless GATEWAY_HEAP_GROWTH_PERCENT says otherwise (0: V8's own)", () => {
    expect(heapGrowthPercent({})).toBe(100);
    expect(heapGrowthPercent({ GATEWAY_HEAP_GROWTH_PERCENT: "50" })).toBe(50);
    expect(heapGrowthPercent({ GATEWAY_HEAP_GROWTH_PERCENT: "0" })).toBe(0);
    expect(() => heapGrowthPercent({ GATEWAY_HEAP_GROWTH_PERCENT: "double" })).toThrow(/whole number from 0 to 1000 \(got "double"\)/);
    expect(() => heapGrowthPercent({ GATEWAY_HEAP_GROWTH_PERCENT: "-5" })).toThrow(/whole number/);
  });
});
