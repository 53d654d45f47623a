// `npm run dev`'s rebuilds (the islands, the lanes) after an edit: editors save in bursts (write,
// rename, chmod), so one rebuild per burst, one at a time, and one more when files changed
// during it.

/** Editors save in bursts: one rebuild per burst. */
const REBUILD_DEBOUNCE_MS = 100;

/** `changed()` after each change; `build` (which reports its own errors) runs once the burst is over. */
export function rebuildAfterBursts(build) {
  let timer;
  let building = false;
  let again = false;
  const rebuild = async () => {
    if (building) {
      again = true;
      return;
    }
    building = true;
    await build();
    building = false;
    if (again) {
      again = false;
      void rebuild();
    }
  };
  return {
    changed: () => {
      clearTimeout(timer);
      timer = setTimeout(rebuild, REBUILD_DEBOUNCE_MS);
    },
    cancel: () => clearTimeout(timer),
  };
}
