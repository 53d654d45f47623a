import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync } from "node:fs";
import path from "node:path";
import { OPERATIONS } from "@/lib/api/operations";
import { createApiLane } from "@/lib/http/api-lane";
import { createPathRouter, type RouteModule } from "@/lib/http/api-router";
import { toRequest } from "@/lib/http/serve-fetch-on-node";
import { apiRouteFiles } from "../../server/build-lanes.mjs";
import { markPeerStamping, stampPeer } from "../../server/stamp-peer.mjs";

/**
 * Serves the gateway's route handlers over a real HTTP socket, in the test process, so
 * integration tests exercise routing, headers and bodies as a merchant's server meets them,
 * while still being able to count SQL round trips. `/api` goes through the production door's
 * API lane (lib/http/api-lane.ts) over the same route table its bundle is built from
 * (server/build-lanes.mjs's apiRouteFiles()); the few page-side route handlers the tests post to
 * (served by Next.js in production) through the same path router.
 */

const APP_DIR = path.resolve(import.meta.dirname, "../../app");

async function modulesOf(routes: readonly { pattern: string; file: string }[]): Promise<Record<string, RouteModule>> {
  const modules: Record<string, RouteModule> = {};
  for (const route of routes) modules[route.pattern] = (await import(route.file)) as RouteModule;
  return modules;
}

/**
 * Every route file outside app/api, which Next.js serves in production (the hosted pages' and the
 * console's form posts, the export, a payment link's entry and QR image, /docs), by its path as
 * the routers write it (`/:locale/console/actions/:action`).
 */
function pageRouteFiles(): { pattern: string; file: string }[] {
  return readdirSync(APP_DIR, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name === "route.ts")
    .map((entry) => path.relative(APP_DIR, entry.parentPath).split(path.sep).join("/"))
    .filter((folder) => folder !== "api" && !folder.startsWith("api/"))
    .map((folder) => ({
      pattern: `/${folder.replace(/\[(\w+)\]/g, ":$1")}`,
      file: path.join(APP_DIR, folder, "route.ts"),
    }));
}

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

/** The door of the tests' server: /api through the API lane, the page-side route handlers through their router. */
async function createDoor(): Promise<{
  serveApi: ReturnType<typeof createApiLane>;
  servePageRoute: (request: Request) => Promise<Response>;
}> {
  const table = apiRouteFiles();
  const serveApi = createApiLane({
    operations: OPERATIONS,
    routeModules: await modulesOf(table.operations),
    otherRouteModules: await modulesOf(table.others),
  });
  const matchPageRoute = createPathRouter(await modulesOf(pageRouteFiles()));
  const servePageRoute = async (request: Request): Promise<Response> => {
    const route = matchPageRoute(new URL(request.url).pathname);
    if (!route) return new Response("no route", { status: 404 });
    const handler = route.module[request.method] as Handler | undefined;
    if (!handler) return new Response(null, { status: 405 });
    return handler(request, { params: Promise.resolve(route.params) });
  };
  return { serveApi, servePageRoute };
}

export interface TestGateway {
  baseUrl: string;
  close(): Promise<void>;
}

/** `port` 0 (the default) takes a free one; `npm run chaos` serves its gateway processes on fixed ports. */
export async function startTestGateway(options: { port?: number } = {}): Promise<TestGateway> {
  let baseUrl = "";
  const { serveApi, servePageRoute } = await createDoor();
  // As npm start's server does (server/serve.mjs): the route handlers learn the TCP peer.
  markPeerStamping();
  const server = createServer((incoming, outgoing) => {
    stampPeer(incoming);
    if (serveApi(incoming, outgoing)) return;
    toRequest(incoming, baseUrl)
      .then(servePageRoute)
      .then(async (response) => {
        outgoing.statusCode = response.status;
        response.headers.forEach((value, name) => outgoing.setHeader(name, value));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      })
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
