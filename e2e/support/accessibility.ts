import { mkdirSync } from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "@playwright/test";
import { expect } from "./fixtures";

const SCREENSHOTS = path.join(import.meta.dirname, "..", "screenshots");
mkdirSync(SCREENSHOTS, { recursive: true });

/** Fails on any serious or critical WCAG 2.2 A/AA or best-practice violation, naming each. */
export async function expectNoSeriousViolations(page: Page, name: string) {
  // Judge the page as it settles: its script may start after the first paint
  // and enable a control then, whose colour fades in
  // (transition-colors); axe must not measure a contrast halfway through that fade.
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== "running"));
  // Legacy mode runs axe in the page itself, where the default opens a blank page per call to
  // merge each frame's results (our pages have no cross-origin frames); only violations are
  // kept. The same rules and findings, at 0.3 s of CPU a page instead of 0.8 s. options()
  // replaces every option, so it comes before withTags(): the tags switch on rules that are off
  // by default, such as target-size (WCAG 2.2 AA).
  const results = await new AxeBuilder({ page })
    .setLegacyMode()
    .options({ resultTypes: ["violations"] })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"])
    .analyze();
  const serious = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
    );
  expect(serious, `axe on ${name}`).toEqual([]);
}

/** Keeps a full-page picture of what the buyer sees, as e2e/screenshots/<name>.png. */
export async function capture(page: Page, name: string) {
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
