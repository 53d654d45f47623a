import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { createApiRouter, createPathRouter, type RouteModule, type RoutedOperation } from "./api-router";
import { MAX_BODY_BYTES } from "./read-json-body";
import { lenientlyDecodedSegments, redirectWithoutSlash } from "./request-path";
import { unknownApiPath } from "./unknown-api-path";

/*
 * The API lane (`npm start` and `npm run dev`, server/door.mjs), the one door of /api: a request
 * goes straight to its route file's handler (endpoint(), otherMethods(), health, metrics, the
 * callbacks, the sandbox's simulators), on node:http with the Web Request and Response the
 * handlers take, instead of through Next.js's request pipeline, which cost about two thirds of
 * an API request's CPU (issue 35). What the handlers do is unchanged; the lane only does what a
 * server does around them (tests/integration/api-door.test.ts replays a corpus through the door):
 *
 * - the URL the handler sees is the Host header's origin and the request target;
 * - the params are the path's segments (a catch-all's as a list);
 * - the answer's headers go out in the Response's order, and the body in one write with its
 *   Content-Length (compression, in the door, then sees it whole and skips what is under 1 KB);
 * - HEAD is the GET handler's answer without its body, a trailing slash a 308 to the path
 *   without it, an encoded segment its decoded value (the prefix's too: `/%61pi/` is /api/), any
 *   other path (and /api/v1 itself) the contract's JSON 404 (unknown-api-path.ts: no route file of
 *   app/api stands for it);
 * - a segment that cannot be decoded (a malformed escape) is its value as sent, which the
 *   handler answers in the contract's envelope like any other value it refuses;
 * - a method the route file does not export: 405 with the methods it does in Allow (OPTIONS:
 *   204 with them), as Next.js answers a route handler;
 * - a Host that is no host name: 400.
 */

/** The largest body sent in one write; a larger one streams. */
const ONE_WRITE_MAX_BYTES = 64 * 1024;
const PLAIN_HOST = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;
const API_PREFIX = "/api/";
// The prefix with any of its letters or its slash escaped (`/%61pi/`, `/api%2F`): Next.js would match its
// route files on the decoded path, past this lane; here it is the API's, each segment decoded below.
const ESCAPED_API_PREFIX = /^\/(?:a|%61)(?:p|%70)(?:i|%69)(?:\/|%2[fF])/;
/** The methods a route file may export (an Allow header names them in alphabetical order, as Next.js did). */
const ROUTE_METHODS = ["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT"];

type RouteHandler = (
  request: Request,
  context: { params: Promise<Record<string, string | string[]>> },
) => Promise<Response>;

export interface ApiLaneOptions {
  operations: readonly RoutedOperation[];
  /** Each registry path's route file module (app/api/v1). */
  routeModules: Readonly<Record<string, RouteModule>>;
  /**
   * app/api's other route files by their path (`:name` one segment, `*name` the rest): health,
   * metrics, the callbacks, the sandbox's simulators.
   */
  otherRouteModules: Readonly<Record<string, RouteModule>>;
}

/**
 * The lane's request listener: answers a request it takes and returns true, or returns false
 * at once, having touched nothing, for Next.js to handle.
 */
export function createApiLane(options: ApiLaneOptions) {
  const matchOperation = createApiRouter(options.operations, options.routeModules);
  const matchOther = createPathRouter(options.otherRouteModules);

  return function serveApiLane(incoming: IncomingMessage, outgoing: ServerResponse): boolean {
    const method = incoming.method ?? "";
    const target = incoming.url ?? "";
    const queryAt = target.indexOf("?");
    const pathname = queryAt === -1 ? target : target.slice(0, queryAt);
    if (!pathname.startsWith(API_PREFIX) && !ESCAPED_API_PREFIX.test(pathname)) return false;
    const host = incoming.headers.host;
    if (host === undefined || !PLAIN_HOST.test(host)) {
      answerBare(outgoing, 400);
      return true;
    }
    if (pathname.endsWith("/")) {
      redirectWithoutSlash(outgoing, pathname.replace(/\/+$/, "") + (queryAt === -1 ? "" : target.slice(queryAt)));
      return true;
    }
    const segments = pathname.includes("%") ? lenientlyDecodedSegments(pathname) : pathname;
    const route = matchOperation(segments) ?? matchOther(segments) ?? { module: unknownApiPath, params: {} };
    // HEAD is GET without the body (Node's response sends none to a HEAD request).
    const handler = route.module[method] ?? (method === "HEAD" ? route.module.GET : undefined);
    if (typeof handler !== "function") {
      const allow = ROUTE_METHODS.filter(
        (name) =>
          typeof route.module[name] === "function" ||
          (name === "HEAD" && typeof route.module.GET === "function") ||
          name === "OPTIONS",
      );
      answerBare(outgoing, method === "OPTIONS" ? 204 : 405, { allow: allow.join(", ") });
      return true;
    }
    answer(incoming, outgoing, `http://${host}${target}`, handler as RouteHandler, route.params).catch(
      (error: unknown) => {
        // The handlers answer every error as the envelope; this is the socket failing under us.
        if (!outgoing.headersSent) {
          outgoing.statusCode = 500;
          outgoing.end();
        } else {
          outgoing.destroy(error as Error);
        }
      },
    );
    return true;
  };
}

/** An answer without a body: a request no route can take, a method a route does not. */
function answerBare(outgoing: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  outgoing.statusCode = status;
  for (const [name, value] of Object.entries(headers)) outgoing.setHeader(name, value);
  outgoing.setHeader("x-content-type-options", "nosniff");
  outgoing.setHeader("content-length", 0);
  outgoing.end();
}

async function answer(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  url: string,
  handler: RouteHandler,
  params: Record<string, string | string[]>,
) {
  const body = await requestBody(incoming);
  const request = new Request(url, {
    method: incoming.method,
    headers: headersOf(incoming),
    ...(body === undefined ? {} : { body, duplex: "half" }),
  } as RequestInit);
  const response = await handler(request, { params: Promise.resolve(params) });
  const bytes = response.body === null ? null : Buffer.from(await response.arrayBuffer());
  outgoing.statusCode = response.status;
  // Answered before the body was read to its end (a streamed body over the limit, cut off): the
  // connection closes after this answer, so a client does not send its next request down a
  // socket that is still carrying the rest of this one.
  if (!incoming.complete) outgoing.setHeader("connection", "close");
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
