// The gateway's one door, the same under `npm start` (server/serve.mjs) and `npm run dev`
// (server/dev.mjs): each request goes to the one piece of code that serves its path.
//
// - /api/: the API lane (lib/http/api-lane.ts), straight to the route file's handler;
// - the signed-in console paths and their stylesheet: the console lane (lib/console/web/console-lane.ts);
// - the hosted buyer pages (checkout, card, OTP, QR, redirect, return, payment link, sandbox): the hosted
//   lane (lib/hosted/hosted-lane.ts);
// - everything else: Next.js, whose answers pass untouched.
//
// Both lanes come from one bundle (server/build-lanes.mjs): `lanes()` returns the current one
// (npm run dev swaps it after each rebuild). Every answer is compressed here, once.
import compression from "compression";
import { stampPeer } from "./stamp-peer.mjs";

/** @typedef {import("node:http").IncomingMessage} IncomingMessage */
/** @typedef {import("node:http").ServerResponse} ServerResponse */

/**
 * @param {{
 *   lanes: () => { serveApi: (request: IncomingMessage, response: ServerResponse) => boolean,
 *                  serveConsole: (request: IncomingMessage, response: ServerResponse) => boolean,
 *                  serveHosted: (request: IncomingMessage, response: ServerResponse) => boolean },
 *   handleNext: (request: IncomingMessage, response: ServerResponse) => unknown,
 * }} options
 * @returns {import("node:http").RequestListener}
 */
export function createDoor({ lanes, handleNext }) {
  // Every answer compressed here, once (next.config.mjs turns Next's own off): gzip or Brotli as the client
  // accepts, from 1 KB when the length is known, flushed as Next.js streams a page. The middleware frees its
  // zlib stream when the client goes away.
  const compress = compression();

  return function door(request, response) {
    // Before anything reads the headers: the client's address rule (lib/http/client-address.ts) starts from
    // the socket's.
    stampPeer(request);
    const started = performance.now();
    compress(request, response, () => {});
    const { serveApi, serveConsole, serveHosted } = lanes();
    // Every /api/ path (the lane decides which are, and answers each itself), each answer in one call with
    // its length: compression sees it whole.
    if (serveApi(request, response)) return;
    // Set by instrumentation.ts's register(): each page's log line and metrics (lib/hosted/log-page-request.ts),
    // and, while traces are on, each page in a span of its own (lib/hosted/trace-page.ts).
    const { gatewayObservePage: observePage, gatewayTracePage: tracePage } = globalThis;
    if (observePage) {
      response.once("close", () => {
        const requestId = response.getHeader("x-request-id");
        observePage({
          method: request.method,
          url: request.url ?? "/",
          status: response.statusCode,
          durationMs: performance.now() - started,
          requestId: typeof requestId === "string" ? requestId : undefined,
          traceId: response.gatewayTraceId,
          // A lane names the route template it matched (Next's pages are read from app/).
          route: response.gatewayRoute,
        });
      });
    }
    const toNext = () => handleNext(request, response);
    const servePage = () => {
      if (serveHosted(request, response)) return;
      if (!serveConsole(request, response)) toNext();
    };
    if (tracePage) tracePage(request, response, servePage);
    else servePage();
  };
}

/** The lanes of a bundle server/build-lanes.mjs wrote, loaded from `url`. */
export async function loadLanes(url) {
  const bundle = await import(url);
  return {
    serveApi: bundle.createLane(),
    serveConsole: bundle.createConsolePageLane(),
    serveHosted: bundle.createHostedPageLane(),
  };
}
