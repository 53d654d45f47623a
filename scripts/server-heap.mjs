// The V8 heap settings `npm start` gives its servers. Node sizes V8's heap for the machine, and
// on a large one (a heap limit over 2 GB) V8 lets the old generation grow to four times what
// survived its last full collection: a server under the benchmark's load sat at 370 MB
// resident with 54 MB of it live. Growing by 100% (to twice the survivors) holds it near
// 270 MB. The full collections that come more often are paid for by a young generation twice
// Node's default (32 MB semi-spaces): with 32 requests in flight, each allocating about
// 0.4 MB, more of a request's garbage dies before a scavenge would copy or promote it.
// Measured in alternating rounds against Node's defaults: CPU per request the same or lower.

export const DEFAULT_SEMI_SPACE_MB = 32;
export const DEFAULT_HEAP_GROWTH_PERCENT = 100;

/** The young generation's size argument among NODE_OPTIONS and the command line (V8 takes `-` or `_`), if any. */
function semiSpaceArg(nodeOptions = "", execArgv = []) {
  return [...nodeOptions.split(/\s+/), ...execArgv].find((arg) => arg.replaceAll("_", "-").startsWith("--max-semi-space-size"));
}

/** The Node arguments of a forked server: the primary's, after ours unless the operator set the young generation. */
export function serverExecArgv(nodeOptions = "", execArgv = []) {
  return semiSpaceArg(nodeOptions, execArgv) ? [...execArgv] : [`--max-semi-space-size=${DEFAULT_SEMI_SPACE_MB}`, ...execArgv];
}

/** What a server's listening line says of its heap. */
export function describeServerHeap(nodeOptions, execArgv, growthPercent) {
  const youngGeneration = semiSpaceArg(nodeOptions, execArgv) ?? "V8's young generation";
  return `${youngGeneration}, old generation growth ${growthPercent ? `${growthPercent}%` : "V8's"}`;
}

/** GATEWAY_HEAP_GROWTH_PERCENT: how far the old generation grows between full collections; 0 leaves V8's own choice. */
export function heapGrowthPercent(env) {
  const raw = env.GATEWAY_HEAP_GROWTH_PERCENT?.trim();
  if (raw === undefined || raw === "") return DEFAULT_HEAP_GROWTH_PERCENT;
  const percent = Number(raw);
  if (!Number.isInteger(percent) || percent < 0 || percent > 1000) {
    throw new Error(`GATEWAY_HEAP_GROWTH_PERCENT must be a whole number from 0 to 1000 (got "${raw}")`);
  }
  return percent;
}
