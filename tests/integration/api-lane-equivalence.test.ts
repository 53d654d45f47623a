import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS, operationKey } from "@/lib/api/operations";
import { createApiRouter } from "@/lib/http/api-router";
import { laneRouteFiles } from "../../server/build-lanes.mjs";
import { HOST, replayCorpus, type Recorded } from "../support/lane-corpus";
import { freePort, spawnGateway, type SpawnedGateway } from "../support/spawned-gateway";

/**
 * Issue 35: the API lane changes no byte of any answer. The real `npm start` entry
 * (server/serve.mjs) twice on the same database, once with GATEWAY_API_LANE=off (every request
 * through Next.js, as before the lane) and once with the lane; the corpus of
 * tests/support/lane-corpus.ts (every operation, its errors, 405s, preflights, 413/415, rate
 * limits, replays, 503s) goes to each, and the answers must be equal: status, every header line
 * in order (but Date) and the body, up to the values each run creates (see lane-corpus.ts).
 * Each server reaches PostgreSQL through a proxy the test can cut, for the 503s.
 */

interface DatabaseProxy {
  port: number;
  setDown(down: boolean): Promise<void>;
  close(): Promise<void>;
}

/** A TCP proxy to PostgreSQL: while down, it drops every connection and refuses new ones. */
async function startDatabaseProxy(target: URL): Promise<DatabaseProxy> {
  let down = false;
  const open = new Set<net.Socket>();
  const proxy = net.createServer((socket) => {
    if (down) return void socket.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const [from, to] of [
      [socket, upstream],
      [upstream, socket],
    ] as const) {
      open.add(from);
      from.pipe(to);
      from.on("error", () => to.destroy());
      from.on("close", () => {
        open.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return {
    port: (proxy.address() as net.AddressInfo).port,
    async setDown(value) {
      down = value;
      if (value) for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise((resolve) => {
        for (const socket of open) socket.destroy();
        proxy.close(() => resolve());
      }),
  };
}

let proxy: DatabaseProxy;
const servers: SpawnedGateway[] = [];
let viaNext: Recorded[] = [];
let viaLane: Recorded[] = [];

async function start(lane: boolean) {
  const port = await freePort();
  const databaseUrl = new URL(process.env.DATABASE_URL!);
  databaseUrl.hostname = "127.0.0.1";
  databaseUrl.port = String(proxy.port);
  const gateway = await spawnGateway(port, {
    DATABASE_URL: databaseUrl.href,
    // The same public address for both: it is in the answers (hosted URLs).
    PUBLIC_BASE_URL: `http://${HOST}`,
    GATEWAY_BACKGROUND_JOBS: "off",
    GATEWAY_API_LANE: lane ? "on" : "off",
  });
  servers.push(gateway);
  return { port, setDatabaseDown: (down: boolean) => proxy.setDown(down) };
}

beforeAll(async () => {
  proxy = await startDatabaseProxy(new URL(process.env.DATABASE_URL!));
  // One after the other: the first start may build the bundle, and each runs the migrations.
  const next = await start(false);
  const lane = await start(true);
  viaNext = await replayCorpus(next);
  viaLane = await replayCorpus(lane);
}, 900_000);

afterAll(async () => {
  for (const server of servers) if (server.process.exitCode === null) server.process.kill("SIGKILL");
  await proxy?.close();
});

describe("the API lane against Next.js routing (npm start, GATEWAY_API_LANE=off)", () => {
  it("answers the whole corpus exactly as Next.js does", () => {
    expect(viaLane.map((record) => record.name)).toEqual(viaNext.map((record) => record.name));
    for (let index = 0; index < viaNext.length; index += 1) {
      expect.soft(viaLane[index], `${viaNext[index]!.name}: ${viaNext[index]!.method} ${viaNext[index]!.path}`).toEqual(viaNext[index]);
    }
  });

  it("covers every operation with an answer of its handler, and the answers the corpus is for", () => {
    const match = createApiRouter(OPERATIONS, Object.fromEntries(laneRouteFiles().map((route) => [route.pattern, {}])));
    const reached = new Set(
      viaNext
        .filter((record) => record.status !== 401 && record.status !== 405 && record.method !== "OPTIONS")
        .map((record) => {
          const route = match(record.path.split("?")[0]!);
          return route ? `${record.method} ${route.pattern}` : null;
        }),
    );
    expect(
      OPERATIONS.map(operationKey).filter((key) => !reached.has(key)),
      "operations the corpus reaches only through 401/405",
    ).toEqual([]);
    const statuses = new Set(viaNext.map((record) => record.status));
    for (const status of [200, 201, 204, 308, 400, 401, 403, 404, 405, 409, 413, 415, 429, 503]) expect(statuses, String(status)).toContain(status);
    expect(viaNext.some((record) => record.headers.includes("Idempotent-Replayed: true") || record.headers.includes("idempotent-replayed: true"))).toBe(true);
    expect(viaNext.some((record) => record.headers.some((line) => /^access-control-allow-methods:/i.test(line)))).toBe(true);
    expect(viaNext.some((record) => record.headers.some((line) => /^content-encoding: gzip/i.test(line)))).toBe(true);
  });

  it("serves the lane's requests outside Next.js (its answers carry no trace of Next's pipeline but the Vary it copies)", () => {
    // The servers ran with LOG_LEVEL=warn; the lane's start line says it took the routes.
    expect(servers[1]!.output()).toMatch(/\/api\/v1 on the lane/);
    expect(servers[0]!.output()).not.toMatch(/\/api\/v1 on the lane/);
  });
});
