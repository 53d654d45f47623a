import { describe, expect, it } from "vitest";
import { parseConfig } from "@/lib/config";
// @ts-expect-error plain JavaScript module of npm start's entry, without type declarations
import { describeServerHeap, serverExecArgv } from "../../server/server-heap.mjs";

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
    expect(serverExecArgv("", ["--max_semi_space_size=64"])).toEqual([
      "--initial-old-space-size=64",
      "--max_semi_space_size=64",
    ]);
  });

  it("leaves the initial old generation to an operator who sized it or the initial heap", () => {
    expect(serverExecArgv("", ["--initial-old-space-size=256"])).toEqual([
      "--max-semi-space-size=32",
      "--initial-old-space-size=256",
    ]);
    expect(serverExecArgv("", ["--initial_heap_size=512"])).toEqual([
      "--max-semi-space-size=32",
      "--initial_heap_size=512",
    ]);
    expect(describeServerHeap("", ["--initial-heap-size=512"], 0)).toBe(
      "V8's young generation, --initial-heap-size=512, old generation growth V8's",
    );
  });

  it("grows old space by 100% unless GATEWAY_HEAP_GROWTH_PERCENT (validated) says otherwise (0: V8's own)", () => {
    expect(parseConfig({}).GATEWAY_HEAP_GROWTH_PERCENT).toBe(100);
    expect(parseConfig({ GATEWAY_HEAP_GROWTH_PERCENT: "50" }).GATEWAY_HEAP_GROWTH_PERCENT).toBe(50);
    expect(parseConfig({ GATEWAY_HEAP_GROWTH_PERCENT: "0" }).GATEWAY_HEAP_GROWTH_PERCENT).toBe(0);
    expect(() => parseConfig({ GATEWAY_HEAP_GROWTH_PERCENT: "double" })).toThrow(/GATEWAY_HEAP_GROWTH_PERCENT/);
    expect(() => parseConfig({ GATEWAY_HEAP_GROWTH_PERCENT: "-5" })).toThrow(/GATEWAY_HEAP_GROWTH_PERCENT/);
  });
});
