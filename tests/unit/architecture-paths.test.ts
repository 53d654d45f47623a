import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

// A document that names a file which moved sends its reader to nothing. Every backticked
// repository path in these documents, and every relative link, must exist; a glob (`*`, `**`,
// `{a,b}`) or a `<placeholder>` segment must match at least one file or folder. A file that is
// gone but worth naming (a log's history) is written without backticks.

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOCUMENTS = [
  "ARCHITECTURE.md",
  "CODE_STYLE.md",
  "README.md",
  ...readdirSync(path.join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];
const PATH_ROOTS = ["lib", "app", "scripts", "tests", "e2e", "components", "docs", "drizzle", "messages"];
// Outputs a command writes, named in the documents but never committed.
const GENERATED = new Set([
  "e2e/screenshots/", // Playwright's journeys
  "docs/wallet-protocol.html", // npm run docs:wallet-protocol
]);

interface Mention {
  document: string;
  line: number;
  path: string;
}

/** Every file and folder under the roots a document may name (folders end with "/"). */
function repositoryEntries(): string[] {
  const entries: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(path.join(ROOT, relative), { withFileTypes: true })) {
      if (entry.name === "node_modules") continue;
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        entries.push(`${child}/`);
        walk(child);
      } else entries.push(child);
    }
  };
  for (const root of PATH_ROOTS) {
    if (!existsSync(path.join(ROOT, root))) continue;
    entries.push(`${root}/`);
    walk(root);
  }
  return entries;
}

/** The markdown outside fenced blocks, line by line (a fence's lines become empty so numbers hold). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split("\n").map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return "";
    }
    return fenced ? "" : line;
  });
}

function mentionsOf(document: string): Mention[] {
  const lines = proseLines(readFileSync(path.join(ROOT, document), "utf8"));
  const rootPattern = new RegExp(`^(?:${PATH_ROOTS.join("|")})/`);
  return lines.flatMap((text, index) => {
    const line = index + 1;
    const backticked = [...text.matchAll(/`([^`\n]+)`/g)]
      .map((match) => match[1]!.trim().split(/\s+/)[0]!)
      .filter((candidate) => rootPattern.test(candidate))
      .map((candidate) => ({ document, line, path: candidate.replace(/[.,;:)]+$/, "") }));
    const linked = [...text.matchAll(/\]\(([^)\s]+)\)/g)]
      .map((match) => match[1]!.split("#")[0]!)
      .filter((target) => target !== "" && !/^[a-z]+:/i.test(target) && !target.startsWith("/"))
      .map((target) => ({
        document,
        line,
        path: path.posix.normalize(path.posix.join(path.posix.dirname(document), target)),
      }));
    return [...backticked, ...linked];
  });
}

/**
 * A documented path as a pattern: `**` any depth, `*` within a segment, `<name>` one segment or part,
 * `{a,b}` either.
 */
function patternOf(documented: string): RegExp {
  let source = "";
  for (let i = 0; i < documented.length; i++) {
    const char = documented[i]!;
    if (documented.startsWith("**", i)) {
      source += ".*";
      i++;
    } else if (char === "*") source += "[^/]*";
    else if (char === "<") {
      const end = documented.indexOf(">", i);
      source += "[^/]+";
      i = end === -1 ? i : end;
    } else if (char === "{") {
      const end = documented.indexOf("}", i);
      const options = documented.slice(i + 1, end).split(",");
      source += `(?:${options.map((option) => option.replace(/[.*+?^$()|[\]\\]/g, "\\$&")).join("|")})`;
      i = end;
    } else source += char.replace(/[.+?^$()|[\]\\]/g, "\\$&");
  }
  return new RegExp(`^${source}/?$`);
}

function exists(documented: string, entries: string[]): boolean {
  if (GENERATED.has(documented)) return true;
  if (/[*<{]/.test(documented)) {
    const pattern = patternOf(documented);
    return entries.some((entry) => pattern.test(entry));
  }
  return existsSync(path.join(ROOT, documented));
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replace(/ /g, "-");
}

/** Links to a section of a markdown document whose heading is not there (a section moved or renamed). */
function brokenAnchors(document: string): string[] {
  const lines = proseLines(readFileSync(path.join(ROOT, document), "utf8"));
  return lines.flatMap((text, index) =>
    [...text.matchAll(/\]\(([^)\s]*\.md)?#([^)\s]+)\)/g)].flatMap((match) => {
      const target = match[1]
        ? path.posix.normalize(path.posix.join(path.posix.dirname(document), match[1]))
        : document;
      if (/^[a-z]+:/i.test(match[1] ?? "") || !existsSync(path.join(ROOT, target))) return [];
      const anchors = proseLines(readFileSync(path.join(ROOT, target), "utf8"))
        .filter((line) => /^#+ /.test(line))
        .map((line) => anchorOf(line.replace(/^#+ /, "").trim()));
      return anchors.includes(match[2]!) ? [] : [`${document}:${index + 1} ${target}#${match[2]}`];
    }),
  );
}

describe("the paths the documents name", () => {
  it("reads the documents it guards", () => {
    expect(DOCUMENTS).toEqual(
      expect.arrayContaining(["ARCHITECTURE.md", "CODE_STYLE.md", "README.md", "docs/going-live.md"]),
    );
    expect(mentionsOf("ARCHITECTURE.md").length).toBeGreaterThan(50);
  });

  it("reads globs and placeholders as patterns", () => {
    expect(patternOf("lib/hosted/views/*-page-view.ts").test("lib/hosted/views/otp-page-view.ts")).toBe(true);
    expect(patternOf("app/api/v1/**/route.ts").test("app/api/v1/payments/intents/route.ts")).toBe(true);
    expect(patternOf("lib/providers/<provider>/").test("lib/providers/card/")).toBe(true);
    expect(patternOf("messages/checkout/{en,fr,ar}.json").test("messages/checkout/fr.json")).toBe(true);
    expect(patternOf("messages/checkout/{en,fr,ar}.json").test("messages/checkout/de.json")).toBe(false);
    expect(anchorOf("Going live with cards (Stripe)")).toBe("going-live-with-cards-stripe");
  });

  it("names only paths that exist", () => {
    const entries = repositoryEntries();
    const missing = DOCUMENTS.flatMap(mentionsOf)
      .filter((mention) => !exists(mention.path, entries))
      .map((mention) => `${mention.document}:${mention.line} ${mention.path}`);
    expect(missing, `missing paths:\n${missing.join("\n")}`).toEqual([]);
  });

  it("links only to sections that exist", () => {
    const broken = DOCUMENTS.flatMap(brokenAnchors);
    expect(broken, `links to missing sections:\n${broken.join("\n")}`).toEqual([]);
  });
});
