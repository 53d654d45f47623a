import { createServer, type RequestListener } from "node:http";
import type { AddressInfo } from "node:net";
import { readdirSync } from "node:fs";
import path from "node:path";
import { OPERATIONS } from "@/lib/api/operations";
import { createApiLane } from "@/lib/http/api-lane";
import { createPathRouter, type RouteModule } from "@/lib/http/api-router";
import { serveFetchHandler } from "@/lib/http/serve-fetch-on-node";
import { apiRouteFiles, consoleNextRoutes } from "../../server/build-lanes.mjs";
import { createDoor, type Lane, type Lanes } from "../../server/door.mjs";
import { markPeerStamping } from "../../server/stamp-peer.mjs";

/**
 * Serves the gateway over a real HTTP socket, in the test process, so integration tests exercise
 * routing, headers and bodies as a merchant's server and a buyer's browser meet them, while still
 * being able to count SQL round trips. Every request goes through the production door
 * (server/door.mjs: the peer's address stamped, compression, the page hooks instrumentation.ts
 * sets), to the same lanes as `npm start`, built from the same sources as its bundle
 * (server/build-lanes.mjs): /api through the API lane over apiRouteFiles(), the hosted buyer pages
 * through the hosted lane, the console pages through the console lane. What the door hands
 * Next.js in production (the page-side route handlers: the hosted pages' and the console's form
 * posts, the export, a payment link's entry and QR image, /docs) goes to those route files
 * through the lanes' path router; anything else is a bare 404 here (Next.js's own pages, which
 * only a build serves: tests/integration/*-door.test.ts).
 */

const APP_DIR = path.resolve(import.meta.dirname, "../../app");
/** A stand-in for the lanes' stylesheet (the bundle compiles app/globals.css through Tailwind): no compile per file. */
const TEST_STYLESHEET = { href: "/_lanes/console.test.css", css: "/* the tests' stand-in for app/globals.css */" };

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

/** The API lane, as the bundle's entry makes it (server/build-lanes.mjs), over the sources. */
async function createApiLaneOfSources(): Promise<Lane> {
  const table = apiRouteFiles();
  return createApiLane({
    operations: OPERATIONS,
    routeModules: await modulesOf(table.operations),
    otherRouteModules: await modulesOf(table.others),
  });
}

/** The console and hosted lanes, as the bundle's entry makes them, over the sources. */
async function createPageLanes(): Promise<Omit<Lanes, "serveApi">> {
  const [{ createConsoleLane }, { CONSOLE_ANSWER_PAGES, CONSOLE_LANE_PAGES }, { createHostedLane }, { HOSTED_LANE }] =
    await Promise.all([
      import("@/lib/console/web/console-lane"),
      import("@/app/[locale]/console/_pages/console-lane-pages"),
      import("@/lib/hosted/hosted-lane"),
      import("@/app/[locale]/hosted-lane-pages"),
    ]);
  return {
    serveConsole: createConsoleLane({
      pages: CONSOLE_LANE_PAGES,
      answerPages: CONSOLE_ANSWER_PAGES,
      nextRoutes: consoleNextRoutes(),
      stylesheet: TEST_STYLESHEET,
    }),
    serveHosted: createHostedLane({ ...HOSTED_LANE, stylesheet: TEST_STYLESHEET }),
  };
}

/** What Next.js answers in production, as far as the tests need it: the page-side route files. */
async function createNextStandIn(baseUrl: () => string): Promise<RequestListener> {
  const matchPageRoute = createPathRouter(await modulesOf(pageRouteFiles()));
  const servePageRoute = async (request: Request): Promise<Response> => {
    const route = matchPageRoute(new URL(request.url).pathname);
    if (!route) return new Response("no route", { status: 404 });
    const handler = route.module[request.method] as Handler | undefined;
    if (!handler) return new Response(null, { status: 405 });
    return handler(request, { params: Promise.resolve(route.params) });
  };
  return serveFetchHandler(servePageRoute, baseUrl, (outgoing, error) => {
    outgoing.statusCode = 599; // Never a gateway answer: makes harness faults obvious.
    outgoing.end(String(error));
  });
}

export interface TestGateway {
  baseUrl: string;
  close(): Promise<void>;
}

/** `port` 0 (the default) takes a free one; `npm run chaos` serves its gateway processes on fixed ports. */
export async function startTestGateway(options: { port?: number } = {}): Promise<TestGateway> {
  let baseUrl = "";
  const serveApi = await createApiLaneOfSources();
  // The page lanes load with the first request that is not the API's (most test files make none: the
  // pages' modules cost a file seconds); until then the door sees only /api/, which the API lane takes whole.
  let pageLanes: Omit<Lanes, "serveApi"> | undefined;
  let loadingPageLanes: Promise<Omit<Lanes, "serveApi">> | undefined;
  const door = createDoor({
    lanes: () => ({ serveApi, ...(pageLanes ?? { serveConsole: () => false, serveHosted: () => false }) }),
    handleNext: await createNextStandIn(() => baseUrl),
  });
  // As npm start's server does (server/serve.mjs): the route handlers learn the TCP peer (the door stamps it).
  markPeerStamping();
  const server = createServer((incoming, outgoing) => {
    if (pageLanes || incoming.url?.startsWith("/api/")) return door(incoming, outgoing);
    (loadingPageLanes ??= createPageLanes()).then(
      (loaded) => {
        pageLanes = loaded;
        door(incoming, outgoing);
      },
      (error: unknown) => {
        outgoing.statusCode = 599; // Never a gateway answer: makes harness faults obvious.
        outgoing.end(String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.PUBLIC_BASE_URL ??= baseUrl;
  return {
    baseUrl,
    close: () => new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
