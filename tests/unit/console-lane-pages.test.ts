import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONSOLE_LANE_PAGES } from "@/app/[locale]/console/_pages/console-lane-pages";

const CONSOLE_DIR = path.resolve(import.meta.dirname, "../../app/[locale]/console");
/** The pages before sign-in: App Router pages only (the lane serves signed-in pages). */
const SIGNED_OUT = ["sign-in", "sign-in/code", "sign-up", "invitations/[token]", "forgot-password", "reset-password/[token]"];

const pageDirectories = readdirSync(CONSOLE_DIR, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && entry.name === "page.tsx")
  .map((entry) => path.relative(CONSOLE_DIR, entry.parentPath).split(path.sep).join("/"))
  .sort();

describe("the console lane's pages (app/[locale]/console/_pages/console-lane-pages.ts)", () => {
  it("are every signed-in console page: each page.tsx is the lane's or one before sign-in", () => {
    expect(pageDirectories.filter((directory) => !SIGNED_OUT.includes(directory))).toEqual(Object.keys(CONSOLE_LANE_PAGES).sort());
  });

  it("render, under the App Router too, the one page the lane renders", async () => {
    for (const [directory, page] of Object.entries(CONSOLE_LANE_PAGES)) {
      const source = readFileSync(path.join(CONSOLE_DIR, directory, "page.tsx"), "utf8");
      const name = /serveConsolePage\((\w+), props\)/.exec(source)?.[1];
      const file = name ? new RegExp(`import \\{ ${name} \\} from "[./]+/_pages/([\\w-]+)"`).exec(source)?.[1] : undefined;
      expect(file, directory).toBeDefined();
      // The very object the lane serves for this directory (its capability, title and render), not another page.
      const pageModule = (await import(`@/app/[locale]/console/_pages/${file}`)) as Record<string, unknown>;
      expect(pageModule[name!], directory).toBe(page);
    }
  });
});
