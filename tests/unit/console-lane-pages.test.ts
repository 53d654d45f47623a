import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONSOLE_LANE_PAGES } from "@/app/[locale]/console/_pages/console-lane-pages";

const CONSOLE_DIR = path.resolve(import.meta.dirname, "../../app/[locale]/console");
/** The pages before sign-in: the lane's too, opened without a member's session. */
const SIGNED_OUT = [
  "forgot-password",
  "invitations/[token]",
  "reset-password/[token]",
  "sign-in",
  "sign-in/code",
  "sign-up",
];

const filesNamed = (name: string) =>
  readdirSync(CONSOLE_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name === name)
    .map((entry) => path.relative(CONSOLE_DIR, entry.parentPath).split(path.sep).join("/"))
    .sort();

describe("the console's one door per page (app/[locale]/console/_pages/console-lane-pages.ts)", () => {
  it("leaves Next.js no console page: no page.tsx, the pages before sign-in the lane's", () => {
    expect(filesNamed("page.tsx")).toEqual([]);
    const signedOut = Object.entries(CONSOLE_LANE_PAGES).filter(([, page]) => "signedOut" in page);
    expect(signedOut.map(([key]) => key).sort()).toEqual(SIGNED_OUT);
  });

  it("gives no lane page the path of a route Next.js serves", () => {
    const nextRoutes = [...filesNamed("page.tsx"), ...filesNamed("route.ts")];
    expect(Object.keys(CONSOLE_LANE_PAGES).filter((key) => nextRoutes.includes(key))).toEqual([]);
  });
});
