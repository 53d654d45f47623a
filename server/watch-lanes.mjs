// `npm run dev`'s lanes: the same bundle as `npm start`'s (server/build-lanes.mjs, the same
// esbuild options), built at start into .lanes/dev/ and rebuilt after an edit of what it bundles
// (lib/, app/, components/, messages/: the route files, the console pages, the classes the
// stylesheet holds). Each rebuild is imported afresh (the module cache is keyed by the URL, so a
// query names each build) and its lanes replace the last ones; a build that fails keeps them.
import { watch } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { context } from "esbuild";
import { lanesBuildOptions } from "./build-lanes.mjs";
import { loadLanes } from "./door.mjs";
import { rebuildAfterBursts } from "./rebuild-after-bursts.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DEV_BUNDLE = path.join(ROOT, ".lanes/dev/lanes.mjs");
const WATCHED = ["lib", "app", "components", "messages"];

/** Builds the lanes, watches their sources; `current()` is the last good build's lanes. */
export async function watchLanes(log) {
  let options = await lanesBuildOptions(DEV_BUNDLE);
  let builder = await context(options);
  let generation = 0;
  const load = async () => {
    await builder.rebuild();
    generation += 1;
    return loadLanes(`${pathToFileURL(DEV_BUNDLE).href}?build=${generation}`);
  };
  let lanes = await load();

  const lanesRebuild = rebuildAfterBursts(async () => {
    try {
      // A new route file, console directory or class changes the entry: a new context for it.
      const next = await lanesBuildOptions(DEV_BUNDLE);
      if (next.stdin.contents !== options.stdin.contents) {
        await builder.dispose();
        options = next;
        builder = await context(options);
      }
      lanes = await load();
      log(`lanes rebuilt (build ${generation})`);
    } catch (error) {
      // esbuild printed its errors; the last good build stays in place.
      const reason = error instanceof Error ? error.message.split("\n")[0] : error;
      log(`lanes not rebuilt (${reason}); serving build ${generation}`);
    }
  });
  const watchers = WATCHED.map((dir) =>
    watch(path.join(ROOT, dir), { recursive: true }, (_event, file) => {
      // Only sources change the build (not an editor's swap file, nor a test).
      if (!file || !/\.(tsx?|css|json)$/.test(file) || /\.test\.tsx?$/.test(file)) return;
      lanesRebuild.changed();
    }),
  );
  return {
    current: () => lanes,
    close: async () => {
      lanesRebuild.cancel();
      for (const watcher of watchers) watcher.close();
      await builder.dispose();
    },
  };
}
