import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { toRequest } from "@/lib/http/serve-fetch-on-node";
import { markPeerStamping, stampPeer } from "../../server/stamp-peer.mjs";

/**
 * Serves the real `app/api/**​/route.ts` handlers over a real HTTP socket, in the test
 * process, so integration tests exercise routing, headers and bodies exactly as a
 * merchant's server would, while still being able to count SQL round trips.
 */
type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

interface RouteEntry {
  pattern: RegExp;
  paramNames: { name: string; catchAll: boolean }[];
  staticWeight: number;
  file: string;
}

const ROOT = path.resolve(import.meta.dirname, "../..");
const APP_DIR = path.join(ROOT, "app");

function discoverRoutes(dir: string, segments: string[] = []): RouteEntry[] {
  const routes: RouteEntry[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) {
      routes.push(...discoverRoutes(full, [...segments, entry]));
    } else if (entry === "route.ts") {
      routes.push(toRouteEntry(segments, full));
    }
  }
  return routes;
}

function toRouteEntry(segments: string[], file: string): RouteEntry {
  const paramNames: RouteEntry["paramNames"] = [];
  let staticWeight = 0;
  const parts = segments
    .filter((segment) => !/^\(.*\)$/.test(segment)) // route groups do not appear in URLs
    .map((segment) => {
      const catchAll = /^\[\[?\.\.\.(\w+)\]\]?$/.exec(segment);
      if (catchAll) {
        paramNames.push({ name: catchAll[1]!, catchAll: true });
        return segment.startsWith("[[") ? "(?:/(.*))?" : "/(.+)";
      }
      const dynamic = /^\[(\w+)\]$/.exec(segment);
      if (dynamic) {
        paramNames.push({ name: dynamic[1]!, catchAll: false });
        return "/([^/]+)";
      }
      staticWeight += 1;
      return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`;
    });
  return { pattern: new RegExp(`^${parts.join("")}/?$`), paramNames, staticWeight, file };
}

// Most static segments first, catch-alls last: the precedence Next.js applies.
const routes = discoverRoutes(APP_DIR)
  // Pages' routes need Next.js; the console's form actions and its CSV export are plain Request → Response handlers,
  // and so are the redirect methods' Pay (go) and the providers' return (the chaos run's buyers post and follow them).
  .filter(
    (route) =>
      !route.file.includes(`${path.sep}[locale]${path.sep}`) ||
      route.file.includes(path.join("[locale]", "console", "actions")) ||
      route.file.includes(path.join("[locale]", "pay", "redirect")) ||
      route.file.includes(path.join("[locale]", "console", "payments", "export")),
  )
  .sort((a, b) => Number(a.paramNames.some((p) => p.catchAll)) - Number(b.paramNames.some((p) => p.catchAll)) || b.staticWeight - a.staticWeight);

async function dispatch(request: Request): Promise<Response> {
  const pathname = new URL(request.url).pathname;
  for (const route of routes) {
    const match = route.pattern.exec(pathname);
    if (!match) continue;
    const params: Record<string, string | string[]> = {};
    route.paramNames.forEach((param, index) => {
      const value = match[index + 1];
      if (value === undefined) return;
      params[param.name] = param.catchAll ? value.split("/").map(safeDecode) : safeDecode(value);
    });
    const module = (await import(route.file)) as Record<string, Handler | undefined>;
    const handler = module[request.method];
    if (!handler) return new Response(null, { status: 405 });
    return handler(request, { params: Promise.resolve(params) });
  }
  return new Response("no route", { status: 404 });
}

// Next.js hands a malformed %-escape through undecoded rather than failing the request.
function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

async function writeResponse(response: Response, outgoing: ServerResponse) {
  outgoing.statusCode = response.status;
  response.headers.forEach((value, name) => outgoing.setHeader(name, value));
  outgoing.end(Buffer.from(await response.arrayBuffer()));
}

export interface TestGateway {
  baseUrl: string;
  close(): Promise<void>;
}

/** `port` 0 (the default) takes a free one; `npm run chaos` serves its gateway processes on fixed ports. */
export async function startTestGateway(options: { port?: number } = {}): Promise<TestGateway> {
  let baseUrl = "";
  // As npm start's server does (server/serve.mjs): the route handlers learn the TCP peer.
  markPeerStamping();
  const server = createServer((incoming, outgoing) => {
    stampPeer(incoming);
    toRequest(incoming, baseUrl)
      .then(dispatch)
      .then((response) => writeResponse(response, outgoing))
      .catch((error: unknown) => {
        outgoing.statusCode = 599; // Never a gateway answer: makes harness faults obvious.
        outgoing.end(String(error));
      });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.PUBLIC_BASE_URL ??= baseUrl;
  return {
    baseUrl,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
