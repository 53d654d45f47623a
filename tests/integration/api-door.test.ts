import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATIONS, operationKey } from "@/lib/api/operations";
import { createApiRouter } from "@/lib/http/api-router";
import { laneRouteFiles } from "../../server/build-lanes.mjs";
import { HOST, replayCorpus, type Recorded } from "../support/api-corpus";
import { freePort, spawnGateway, type SpawnedGateway } from "../support/spawned-gateway";

/**
 * The contract of /api held by its one door: the real `npm start` entry (server/serve.mjs),
 * where the API lane serves it. The corpus of tests/support/api-corpus.ts (every operation, its
 * errors, 405s, preflights, 413/415, rate limits, replays, 503s, compression and the edges of
 * routing) goes to it, and each answer must keep the contract's rules. The server reaches
 * PostgreSQL through a proxy the test can cut, for the 503s.
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
let gateway: SpawnedGateway;
let records: Recorded[] = [];

beforeAll(async () => {
  proxy = await startDatabaseProxy(new URL(process.env.DATABASE_URL!));
  const port = await freePort();
  const databaseUrl = new URL(process.env.DATABASE_URL!);
  databaseUrl.hostname = "127.0.0.1";
  databaseUrl.port = String(proxy.port);
  gateway = await spawnGateway(port, {
    DATABASE_URL: databaseUrl.href,
    PUBLIC_BASE_URL: `http://${HOST}`,
    GATEWAY_BACKGROUND_JOBS: "off",
  });
  records = await replayCorpus({ port, setDatabaseDown: (down) => proxy.setDown(down) });
}, 900_000);

afterAll(async () => {
  if (gateway && gateway.process.exitCode === null) gateway.process.kill("SIGKILL");
  await proxy?.close();
});

const header = (record: Recorded, name: string): string | undefined =>
  record.headers.find((line) => line.toLowerCase().startsWith(`${name}:`))?.replace(/^[^:]+:\s*/, "");
const named = (name: string): Recorded => {
  const found = records.find((record) => record.name === name);
  if (!found) throw new Error(`no record named ${name}`);
  return found;
};

describe("the API's door (npm start)", () => {
  it("covers every operation with an answer of its handler, and the answers the corpus is for", () => {
    const match = createApiRouter(OPERATIONS, Object.fromEntries(laneRouteFiles().map((route) => [route.pattern, {}])));
    const reached = new Set(
      records
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
    const statuses = new Set(records.map((record) => record.status));
    for (const status of [200, 201, 204, 308, 400, 401, 403, 404, 405, 409, 413, 415, 429, 503])
      expect(statuses, String(status)).toContain(status);
    expect(records.some((record) => header(record, "idempotent-replayed") === "true")).toBe(true);
  });

  it("answers a method a path does not serve with 405 and the methods it does in Allow", () => {
    const refused = records.filter((record) => record.status === 405);
    expect(refused.length).toBeGreaterThan(0);
    for (const record of refused)
      expect(header(record, "allow"), `${record.name}: ${record.method} ${record.path}`).toMatch(/^[A-Z]+(, [A-Z]+)*$/);
  });

  it("answers CORS preflights with the allowed methods, the database away or not", () => {
    const preflights = records.filter(
      (record) => record.method === "OPTIONS" && header(record, "access-control-allow-methods") !== undefined,
    );
    expect(preflights.length).toBeGreaterThan(0);
    expect(header(named("preflight while away"), "access-control-allow-methods")).toBeDefined();
  });

  it("compresses what is worth it for a client that accepts it, and only that", () => {
    expect(header(named("openapi.json gzip"), "content-encoding")).toBe("gzip");
    expect(header(named("openapi.json gzip"), "vary")).toMatch(/accept-encoding/i);
    expect(header(named("openapi.json"), "content-encoding")).toBeUndefined();
    // A check's few hundred bytes go out as they are, with their length.
    const check = named("check gzip accepted");
    expect(header(check, "content-encoding")).toBeUndefined();
    expect(header(check, "content-length")).toBe("<length>");
  });

  it("answers HEAD as bodiless GET, redirects a trailing slash, decodes segments, JSON-404s unknown paths", () => {
    const get = named("check client_auth");
    const head = named("HEAD");
    expect(head.status).toBe(get.status);
    expect(head.body).toBe("");
    const slash = named("trailing slash");
    expect(slash.status).toBe(308);
    expect(header(slash, "location")).toMatch(/\/check$/);
    const encoded = named("encoded segment");
    expect(encoded.status).toBe(200);
    const paymentOf = (record: Recorded) => (JSON.parse(record.body) as { data: { paymentId: string } }).data.paymentId;
    expect(paymentOf(encoded)).toBe(paymentOf(get));
    // An escaped prefix is the API's too, never a route file reached through Next.js past the lane.
    expect(paymentOf(named("escaped prefix"))).toBe(paymentOf(get));
    const escapedSlash = named("escaped prefix slash");
    expect(escapedSlash.status).toBe(404);
    expect(header(escapedSlash, "content-type")).toMatch(/^application\/json/);
    for (const name of ["unknown path", "api root", "unknown path preflight"]) {
      const unknown = named(name);
      expect(unknown.status, name).toBe(404);
      expect(header(unknown, "content-type"), name).toMatch(/^application\/json/);
      expect(JSON.parse(unknown.body.replace(/ <wire sha256 \w+>$/, "")), name).toMatchObject({
        code: 404,
        error: { name: "not_found" },
      });
    }
  });

  it("answers what no route can: a bad escape in the contract's envelope, an unexported method 405 with Allow", () => {
    const malformed = named("malformed escape");
    expect(malformed.status).toBeGreaterThanOrEqual(400);
    expect(malformed.status).toBeLessThan(500);
    expect(header(malformed, "content-type")).toMatch(/^application\/json/);
    const trace = named("method no route takes");
    expect(trace.status).toBe(405);
    expect(header(trace, "allow")).toMatch(/\bGET\b/);
  });

  it("serves the rest of /api through the same lane: health, readiness, metrics, callbacks, any other path", () => {
    expect(named("health").status).toBe(200);
    expect(JSON.parse(named("health").body.replace(/ <wire sha256 \w+>$/, ""))).toEqual({ status: "ok" });
    expect(named("health HEAD").status).toBe(200);
    expect(named("health HEAD").body).toBe("");
    expect(named("health posted").status).toBe(405);
    expect(header(named("health posted"), "allow")).toBe("GET, HEAD, OPTIONS");
    expect(named("readiness").status).toBe(200);
    expect(named("metrics").status).toBe(404);
    expect(named("wallet callback preflight").status).toBe(204);
    expect(header(named("wallet callback preflight"), "allow")).toBe("OPTIONS, POST");
    const unknown = named("unknown path outside v1");
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body.replace(/ <wire sha256 \w+>$/, ""))).toMatchObject({
      code: 404,
      error: { name: "not_found" },
    });
  });

  it("sets the API's security headers on every answer but a preflight's and a redirect's", () => {
    for (const record of records.filter((record) => record.status !== 308 && record.method !== "OPTIONS")) {
      expect(header(record, "x-content-type-options"), `${record.name}: ${record.method} ${record.path}`).toBe(
        "nosniff",
      );
    }
  });

  it("answers every request itself: no answer carries the Vary of Next.js's router", () => {
    for (const record of records) {
      expect(header(record, "vary") ?? "", `${record.name}: ${record.method} ${record.path}`).not.toMatch(/\brsc\b/);
    }
  });
});
