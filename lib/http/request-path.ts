import type { ServerResponse } from "node:http";

/*
 * What the lanes (lib/http/api-lane.ts, lib/console/web/console-lane.ts) do with a request's
 * path before they match it, as a server does: each segment decoded, a trailing slash redirected.
 */

/**
 * The path's segments (after its leading `/`), each decoded (`%2D` → `-`) as a route's params
 * take them; null for what no route can be: a malformed escape, an encoded `/`, an empty, `.` or
 * `..` segment.
 */
export function decodedSegments(path: string): string[] | null {
  const segments: string[] = [];
  for (const segment of path.split("/").slice(1)) {
    let value: string;
    try {
      value = decodeURIComponent(segment);
    } catch {
      return null;
    }
    if (value === "" || value === "." || value === ".." || value.includes("/")) return null;
    segments.push(value);
  }
  return segments;
}

/**
 * The path's segments (after its leading `/`), each decoded where it can be, as sent where it
 * cannot (a malformed escape): the API's handlers then answer it in the contract's envelope (an
 * id no object has, a field that fails its schema), as they answer any other value.
 */
export function lenientlyDecodedSegments(path: string): string[] {
  return path
    .split("/")
    .slice(1)
    .map((segment) => {
      if (!segment.includes("%")) return segment;
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}

/** A trailing slash: the path without it, for good (308 keeps the method and the body), as Next.js answers it. */
export function redirectWithoutSlash(outgoing: ServerResponse, location: string): void {
  const body = Buffer.from(location);
  outgoing.statusCode = 308;
  outgoing.setHeader("location", location);
  outgoing.setHeader("content-length", body.length);
  outgoing.end(body);
}
