// The V8 heap settings `npm start` gives its servers. Node sizes V8's heap for the machine, and
// on a large one (a heap limit over 2 GB) V8 lets the old generation grow to four times what
// survived its last full collection: a server under the benchmark's load sat at 370 MB
// resident with 54 MB of it live. Growing by 100% (to twice the survivors) holds it near
// 270 MB. The full collections that come more often are paid for by a young generation twice
// Node's default (32 MB semi-spaces): with 32 requests in flight, each allocating about
// 0.4 MB, more of a request's garbage dies before a scavenge would copy or promote it.
// Measured in alternating rounds against Node's defaults: CPU per request the same or lower.
// The growth only applies from V8's first full collection on, and on such a machine V8 puts
// that first one off until the old generation reaches its initial size, sized from the heap
// limit: a cold server climbed to 334 MB resident in its first seconds under load before it
// fell to 260. A 64 MB initial old generation (the server holds about 50 MB live) starts the
// full collections from the first requests: at most 296 MB over the same loads.

export const DEFAULT_SEMI_SPACE_MB = 32;
export const DEFAULT_INITIAL_OLD_SPACE_MB = 64;

/** The argument among NODE_OPTIONS and the command line that names one of `flags` (V8 takes `-` or `_`), if any. */
function heapArg(nodeOptions = "", execArgv = [], flags) {
  return [...nodeOptions.split(/\s+/), ...execArgv].find((arg) =>
    flags.some((flag) => arg.replaceAll("_", "-").startsWith(flag)),
  );
}

const semiSpaceArg = (nodeOptions, execArgv) => heapArg(nodeOptions, execArgv, ["--max-semi-space-size"]);
// An operator's initial heap (either flag) sizes the initial old generation too.
const initialOldSpaceArg = (nodeOptions, execArgv) =>
  heapArg(nodeOptions, execArgv, ["--initial-old-space-size", "--initial-heap-size"]);

/** The Node arguments of a forked server: ours, then the primary's; each of ours left out where the operator set it. */
export function serverExecArgv(nodeOptions = "", execArgv = []) {
  return [
    ...(semiSpaceArg(nodeOptions, execArgv) ? [] : [`--max-semi-space-size=${DEFAULT_SEMI_SPACE_MB}`]),
    ...(initialOldSpaceArg(nodeOptions, execArgv) ? [] : [`--initial-old-space-size=${DEFAULT_INITIAL_OLD_SPACE_MB}`]),
    ...execArgv,
  ];
}

/** What a server's listening line says of its heap. */
export function describeServerHeap(nodeOptions, execArgv, growthPercent) {
  const youngGeneration = semiSpaceArg(nodeOptions, execArgv) ?? "V8's young generation";
  const initialOldGeneration = initialOldSpaceArg(nodeOptions, execArgv) ?? "V8's initial old generation";
  const growth = growthPercent ? `${growthPercent}%` : "V8's";
  return `${youngGeneration}, ${initialOldGeneration}, old generation growth ${growth}`;
}
