import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { NOT_SERVED } from "@/lib/http/method-not-allowed";
import { unknownApiPath } from "@/lib/http/unknown-api-path";

const ROOT = path.resolve(import.meta.dirname, "../../..");
export const API_DIR = path.join(ROOT, "app/api/v1");

const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

export interface DiscoveredRoute {
  /** `METHOD /api/v1/customers/:id`; a catch-all segment is `*`. */
  key: string;
  method: string;
  pattern: string;
  file: string;
}

/** The API lane's answer to any other path (lib/http/unknown-api-path.ts): /api/v1 itself, and `*` below it. */
const UNKNOWN_PATH_FILE = path.join(ROOT, "lib/http/unknown-api-path.ts");

/**
 * Every handler the gateway serves under /api/v1, read from the file system and from each
 * route module's exports, so an endpoint added tomorrow is in the security suite at once; and
 * the lane's JSON 404 of every other path, as `/api/v1` and `/api/v1/*`.
 */
export async function discoverApiRoutes(): Promise<DiscoveredRoute[]> {
  const found: DiscoveredRoute[] = [];
  const add = (module: Record<string, unknown>, pattern: string, file: string) => {
    for (const method of HTTP_METHODS) {
      const handler = module[method];
      // A handler that only answers 405 for a method the route does not serve is no endpoint.
      if (typeof handler === "function" && !(NOT_SERVED in handler))
        found.push({ key: `${method} ${pattern}`, method, pattern, file });
    }
  };
  for (const file of routeFiles(API_DIR))
    add((await import(file)) as Record<string, unknown>, patternOf(path.relative(API_DIR, path.dirname(file))), file);
  for (const pattern of ["/api/v1", "/api/v1/*"]) add(unknownApiPath, pattern, UNKNOWN_PATH_FILE);
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

function routeFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return routeFiles(full);
    return /^route\.(ts|tsx|js)$/.test(entry) ? [full] : [];
  });
}

function patternOf(relativeDir: string): string {
  const segments = relativeDir
    .split(path.sep)
    .filter((segment) => segment !== "" && !/^\(.*\)$/.test(segment)) // route groups are not in the URL
    .map((segment) => {
      if (/^\[\[?\.\.\.\w+\]\]?$/.test(segment)) return "*";
      const dynamic = /^\[(\w+)\]$/.exec(segment);
      return dynamic ? `:${dynamic[1]}` : segment;
    });
  return ["/api/v1", ...segments].join("/");
}

/** The URL path of `pattern` with its parameters filled (encoded), `*` with `params["*"]`. */
export function fillPattern(pattern: string, params: Record<string, string>): string {
  return pattern
    .split("/")
    .map((segment) => {
      if (segment === "*") return params["*"] ?? "anything";
      if (!segment.startsWith(":")) return segment;
      const value = params[segment.slice(1)];
      if (value === undefined) throw new Error(`no value for ${segment} in ${pattern}`);
      return encodeURIComponent(value);
    })
    .join("/");
}
