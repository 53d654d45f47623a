import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { createApiRouter, type RouteModule, type RoutedOperation } from "./api-router";
import { MAX_BODY_BYTES } from "./read-json-body";
import { decodedSegments, redirectWithoutSlash } from "./request-path";

/*
 * The API lane (`npm start` and `npm run dev`, server/door.mjs): a request for a path of the
 * operations registry goes straight to its route file's handler (endpoint(), otherMethods()),
 * on node:http with the Web Request and Response the handlers take, instead of through Next.js's
 * request pipeline, which cost about two thirds of an API request's CPU (issue 35). What the
 * handlers do is unchanged; the lane only does what a server does around them
 * (tests/integration/api-door.test.ts replays a corpus through the door):
 *
 * - the URL the handler sees is the Host header's origin and the request target;
 * - the params are the path's segments;
 * - the answer's headers go out in the Response's order, and the body in one write with its
 *   Content-Length (server/send-in-one-write.mjs has Next.js's answers go out the same way).
 *
 * - HEAD is the GET handler's answer without its body, a trailing slash a 308 to the path
 *   without it, an encoded segment its decoded value, any other path the catch-all's JSON 404.
 *
 * What the lane does not serve goes to Next.js's routing of app/api: a method no route file
 * takes (TRACE), a path no route can be (a malformed escape, an encoded `/`, an empty, `.` or
 * `..` segment), an unusual Host.
 */

/** The largest body sent in one write (server/send-in-one-write.mjs's MAX_HELD); a larger one streams. */
const ONE_WRITE_MAX_BYTES = 64 * 1024;
const LANE_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const PLAIN_HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;
const API_ROOT = "/api/v1";

type RouteHandler = (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface ApiLaneOptions {
  operations: readonly RoutedOperation[];
  /** Each registry path's route file module. */
  routeModules: Readonly<Record<string, RouteModule>>;
  /** The catch-all route file's module (app/api/v1/[...unknown]): the JSON 404 of any other path. */
  unknownPath: RouteModule;
}

/**
 * The lane's request listener: answers a request it takes and returns true, or returns false
 * at once, having touched nothing, for Next.js to handle.
 */
export function createApiLane(options: ApiLaneOptions) {
  const match = createApiRouter(options.operations, options.routeModules);

  return function serveApiLane(incoming: IncomingMessage, outgoing: ServerResponse): boolean {
    const method = incoming.method ?? "";
    const target = incoming.url ?? "";
    if (!LANE_METHODS.has(method)) return false;
    const queryAt = target.indexOf("?");
    const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
    if (pathname !== API_ROOT && !pathname.startsWith(`${API_ROOT}/`)) return false;
    const host = incoming.headers.host;
    if (host === undefined || !PLAIN_HOST.test(host)) return false;
    if (pathname !== API_ROOT && pathname.endsWith("/")) {
      redirectWithoutSlash(outgoing, pathname.replace(/\/+$/, "") + (queryAt === -1 ? "" : target.slice(queryAt)));
      return true;
    }
    const path = decodedPath(pathname);
    if (path === null) return false;
    const route = match(path) ?? { module: options.unknownPath, params: {} };
    // HEAD is GET without the body (Node's response sends none to a HEAD request).
    const handler = route.module[method] ?? (method === "HEAD" ? route.module.GET : undefined);
    if (typeof handler !== "function") return false;
    answer(incoming, outgoing, `http://${host}${target}`, handler as RouteHandler, route.params).catch((error: unknown) => {
      // The handlers answer every error as the envelope; this is the socket failing under us.
      if (!outgoing.headersSent) {
        outgoing.statusCode = 500;
        outgoing.end();
      } else {
        outgoing.destroy(error as Error);
      }
    });
    return true;
  };
}

/** The path with each segment decoded; null for what no route can be (lib/http/request-path.ts). */
function decodedPath(pathname: string): string | null {
  if (!pathname.includes("%")) return /\/\.{0,2}(?:\/|$)/.test(pathname) ? null : pathname;
  const segments = decodedSegments(pathname);
  return segments === null ? null : `/${segments.join("/")}`;
}

async function answer(incoming: IncomingMessage, outgoing: ServerResponse, url: string, handler: RouteHandler, params: Record<string, string>) {
  const body = await requestBody(incoming);
  const request = new Request(url, {
    method: incoming.method,
    headers: headersOf(incoming),
    ...(body === undefined ? {} : { body, duplex: "half" }),
  } as RequestInit);
  const response = await handler(request, { params: Promise.resolve(params) });
  const bytes = response.body === null ? null : Buffer.from(await response.arrayBuffer());
  outgoing.statusCode = response.status;
  // Next.js drops a route's own Content-Length (the QR image's); the body's length is set below.
  response.headers.forEach((value, name) => {
    if (name !== "content-length") outgoing.setHeader(name, value);
  });
  // HEAD: the GET's head alone, without the length of a body it does not send.
  if (bytes === null || bytes.length === 0 || incoming.method === "HEAD") {
    outgoing.end();
    return;
  }
  if (bytes.length > ONE_WRITE_MAX_BYTES) {
    // Streamed, chunked, as Next.js sent a body this large (the OpenAPI document).
    outgoing.write(bytes);
    outgoing.end();
    return;
  }
  outgoing.setHeader("content-length", bytes.length);
  outgoing.end(bytes);
}

/**
 * The request body as Next.js hands it to a route: none for GET, HEAD and OPTIONS; otherwise the
 * bytes, read here at once when the declared length is within the API's limit (every answer
 * reads at most that much), else the stream itself, which the handler cuts off at the limit.
 */
async function requestBody(incoming: IncomingMessage): Promise<Buffer | ReadableStream | undefined> {
  if (incoming.method === "GET" || incoming.method === "HEAD" || incoming.method === "OPTIONS") return undefined;
  const declared = Number(incoming.headers["content-length"] ?? "0");
  if (!(declared <= MAX_BODY_BYTES) || incoming.headers["transfer-encoding"] !== undefined) {
    return Readable.toWeb(incoming) as unknown as ReadableStream;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/** From Node's parsed headers, as Next.js builds them: a repeated Authorization keeps its first, as Node does. */
function headersOf(incoming: IncomingMessage): Headers {
  const headers = new Headers();
  const parsed = incoming.headers;
  for (const name in parsed) {
    const value = parsed[name];
    if (typeof value === "string") headers.append(name, value);
    else if (value !== undefined) for (const item of value) headers.append(name, item);
  }
  return headers;
}
