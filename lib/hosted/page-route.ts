import { readdirSync } from "node:fs";
import path from "node:path";

interface CompiledRoute {
  page: string;
  pattern: RegExp;
}

let routes: CompiledRoute[] | null = null;

const PAGE_FILE = /^(page\.tsx|route\.ts)$/;

/**
 * Every folder of the app that Next.js serves a page or a page route from (app/api is the API's
 * own). The lanes' pages are not here: the lane that answers one names its template itself
 * (observePageAnswer's `route`).
 */
function routeFolders(appDir: string, relative = ""): string[] {
  let entries;
  try {
    entries = readdirSync(path.join(appDir, relative), { withFileTypes: true });
  } catch {
    return [];
  }
  const here = entries.some((entry) => entry.isFile() && PAGE_FILE.test(entry.name)) ? [relative] : [];
  const below = entries
    // app/api is the API's own; a private folder (`_pages`) makes no route.
    .filter((entry) => entry.isDirectory() && !(relative === "" && entry.name === "api") && !entry.name.startsWith("_"))
    .flatMap((entry) => routeFolders(appDir, path.join(relative, entry.name)));
  return [...here, ...below];
}

/**
 * A folder path as the route it serves, as App Router reads folders: `[id]` one segment,
 * `[...path]` the rest, a `(group)` none. Static routes first, as Next.js matches them first.
 */
function compile(folders: string[]): CompiledRoute[] {
  const compiled = folders.map((folder) => {
    const segments = folder.split(path.sep).filter((segment) => segment !== "" && !/^\(.*\)$/.test(segment));
    const pattern = segments
      .map((segment) =>
        segment.startsWith("[...")
          ? "/.+"
          : segment.startsWith("[")
            ? "/[^/]+"
            : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`,
      )
      .join("");
    return {
      page: `/${segments.join("/")}`,
      pattern: new RegExp(`^${pattern || "/"}/?$`),
      dynamic: segments.some((segment) => segment.startsWith("[")),
    };
  });
  return [...compiled.filter((route) => !route.dynamic), ...compiled.filter((route) => route.dynamic)];
}

/** Test hook: the app folder to read (the project's own `app/` by default, never Next's build output). */
export function usePageRoutes(appDir: string = path.join(process.cwd(), "app")): void {
  routes = compile(routeFolders(appDir));
}

/**
 * A page request's route as a metric label: the page's folder path as the app names it
 * (`/[locale]/pay/checkout/[paymentId]`), `/_next/static` for the build's assets, and for anything no
 * page serves `unmatched` (a 404 page, a scanner's guess) or `other` (a redirect of a path
 * without its locale, a public file), so no id and no guessed path becomes a label value.
 */
export function pageRouteOf(pathname: string, status: number): string {
  if (pathname.startsWith("/_next/")) return "/_next/static";
  if (routes === null) usePageRoutes();
  const found = routes!.find((route) => route.pattern.test(pathname));
  if (found) return found.page;
  return status === 404 ? "unmatched" : "other";
}
