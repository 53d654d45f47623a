// STUB until issue-islands is merged: the islands contract's runtime, written to its text.
// Dropped in favour of the islands branch's own file at the merge.

/** The JSON the server rendered for island `name` (`<script type="application/json" id="island-config-<name>">`). */
export function readIslandConfig<T>(name: string): T {
  const element = document.getElementById(`island-config-${name}`);
  if (!element?.textContent) throw new Error(`No config for island ${name}.`);
  return JSON.parse(element.textContent) as T;
}

/** Adds `name` to `<html data-islands-ready>` once the island has wired itself. */
export function markIslandReady(name: string): void {
  const root = document.documentElement;
  const ready = new Set((root.dataset.islandsReady ?? "").split(" ").filter(Boolean));
  ready.add(name);
  root.dataset.islandsReady = [...ready].join(" ");
}
