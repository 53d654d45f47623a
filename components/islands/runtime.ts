// The few helpers every island shares. Browser code: bundled into each island by
// scripts/build-islands.mjs, so it must not import anything server-side.

/** The JSON the server rendered for island `name` (components/island.tsx). */
export function readIslandConfig<T>(name: string): T {
  const element = document.getElementById(`island-config-${name}`);
  if (!element?.textContent) throw new Error(`island ${name}: its config is missing from the page`);
  return JSON.parse(element.textContent) as T;
}

/**
 * Records on <html data-islands-ready> that island `name` has wired itself, so a test (or a
 * person in the console) can tell a page whose behaviour is live from one still loading.
 */
export function markIslandReady(name: string): void {
  const root = document.documentElement;
  const ready = new Set((root.dataset.islandsReady ?? "").split(" ").filter(Boolean));
  ready.add(name);
  root.dataset.islandsReady = [...ready].join(" ");
}
