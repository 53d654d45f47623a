import { readFileSync } from "node:fs";
import path from "node:path";

interface RouteEntry {
  page: string;
  regex: string;
}
interface CompiledRoute {
  page: string;
  pattern: RegExp;
}

let routes: CompiledRoute[] | null = null;

/** Next.js's own table of the app's pages (`.next/routes-manifest.json`, written by `next build`): static routes first, as it matches. */
function loadRoutes(manifestPath: string): CompiledRoute[] {
  try {
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { staticRoutes?: RouteEntry[]; dynamicRoutes?: RouteEntry[] };
    return [...(manifest.staticRoutes ?? []), ...(manifest.dynamicRoutes ?? [])].map((route) => ({ page: route.page, pattern: new RegExp(route.regex) }));
  } catch {
    return [];
  }
}

/** Test hook: the manifest to read (the build's by default). */
export function usePageRoutes(manifestPath: string = path.join(process.cwd(), ".next", "routes-manifest.json")): void {
  routes = loadRoutes(manifestPath);
}

/**
 * A page request's route as a metric label: the page's folder path as Next.js names it
 * (`/[locale]/pay/checkout/[id]`), `/_next/static` for the build's assets, and for anything no
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
