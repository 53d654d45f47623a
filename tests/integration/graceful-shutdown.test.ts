import { spawn, type ChildProcess } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { notifications } from "@/lib/db/schema";
import { apiClient } from "../support/api";
import { createMerchant, randomPhone } from "../support/factories";
import { realEvent } from "../support/real-events";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";
import { ensureGatewayBuilt } from "../support/spawned-gateway";

/**
 * Issue 15 item 3 on the real `npm start` entry (server/serve.mjs, two serving processes on
 * one port): a rolling restart (SIGHUP) under load answers every request, and a SIGTERM under
 * load answers every request sent before it, gives the webhook leases back and exits 0. The
 * rolling restart again with one server, which accepts its connections itself.
 */
const ROOT = path.resolve(import.meta.dirname, "../..");

let gateway: ChildProcess;
let output = "";
let baseUrl = "";
let receiver: WebhookReceiver;
let merchant: Awaited<ReturnType<typeof createMerchant>>;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function waitFor(what: string, probe: () => boolean | Promise<boolean>, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    if (gateway.exitCode !== null)
      throw new Error(`the gateway exited (${gateway.exitCode}) waiting for ${what}:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`timed out waiting for ${what}:\n${output.slice(-4000)}`);
}

const listeningPids = () => [...output.matchAll(/\[gateway server (\d+)\] listening/g)].map((match) => match[1]);

/** Clients that create then check intents back to back until told to stop; every answer is kept. */
function startLoad(clients: number) {
  const authorization = `Bearer ${Buffer.from(`${merchant.clientId}:${merchant.clientSecret}`).toString("base64")}`;
  const outcomes: { op: string; status: number | string }[] = [];
  let stopped = false;
  let inFlight = 0;
  const send = async (op: string, url: string, init: RequestInit) => {
    inFlight += 1;
    try {
      const response = await fetch(url, init);
      const body = (await response.json()) as { data?: { paymentId?: string } };
      outcomes.push({ op, status: response.status });
      return { status: response.status, paymentId: body.data?.paymentId };
    } catch (error) {
      outcomes.push({ op, status: String((error as { cause?: { code?: string } }).cause?.code ?? error) });
      return null;
    } finally {
      inFlight -= 1;
    }
  };
  const loops = Array.from({ length: clients }, async () => {
    while (!stopped) {
      const created = await send("create", `${baseUrl}/api/v1/payments/intents?countryCode=DZA`, {
        method: "POST",
        headers: { authorization, "content-type": "application/json" },
        body: JSON.stringify({
          actionId: randomUUID(),
          amount: 100,
          actionCurrencyCode: "DZD",
          actionCountryCode: "DZA",
          userId: randomPhone(),
        }),
      });
      if (stopped || created?.status !== 201 || !created.paymentId) continue;
      await send("check", `${baseUrl}/api/v1/payments/intents/${created.paymentId}/check`, {
        headers: { authorization, "x-service": merchant.service, "x-platform": "API" },
      });
    }
  });
  return {
    outcomes,
    inFlight: () => inFlight,
    /** No new request after this; resolves when the ones in flight have their answers. */
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

/** Starts `npm start`'s entry with `servers` serving processes on a free port. */
async function startGateway(servers: number) {
  await ensureGatewayBuilt();
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  output = "";
  gateway = spawn(process.execPath, ["server/serve.mjs"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_BASE_URL: baseUrl,
      WEB_CONCURRENCY: String(servers),
      LOG_LEVEL: "warn",
      GATEWAY_SHUTDOWN_TIMEOUT_MS: "20000",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  gateway.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  gateway.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  // The first start may build the production bundle (minutes on a busy machine).
  await waitFor(`${servers} server(s) listening`, () => listeningPids().length >= servers, 600_000);
}

function stopGateway() {
  if (gateway.exitCode === null) gateway.kill("SIGKILL");
}

/** SIGHUP under load: every request answered, and each server replaced by a new one. */
async function rollingRestartUnderLoad(servers: number) {
  const load = startLoad(8);
  await waitFor("load before the restart", () => load.outcomes.length >= 40, 60_000);
  const before = listeningPids();
  gateway.kill("SIGHUP");
  await waitFor("the rolling restart", () => output.includes("rolling restart done"), 120_000);
  const countAtRestartEnd = load.outcomes.length;
  await waitFor("load after the restart", () => load.outcomes.length >= countAtRestartEnd + 40, 60_000);
  await load.stop();

  const failed = load.outcomes.filter((outcome) => outcome.status !== 200 && outcome.status !== 201);
  expect(failed).toEqual([]);
  const after = listeningPids();
  expect(before.length).toBe(servers);
  expect(after.length).toBe(before.length + servers);
  expect(new Set(after).size).toBe(after.length);
  for (const pid of before) expect(output).toMatch(new RegExp(`\\[gateway server ${pid}\\] stopped`));
}

beforeAll(async () => {
  merchant = await createMerchant();
});

afterAll(async () => {
  await receiver?.close();
});

describe("graceful shutdown of npm start's servers", () => {
  beforeAll(() => startGateway(2), 620_000);
  afterAll(stopGateway);

  it(
    "a rolling restart under load answers every request and replaces both servers",
    () => rollingRestartUnderLoad(2),
    240_000,
  );

  it("SIGTERM under load answers every request sent before it, gives the webhook leases back and exits 0", async () => {
    // Deliveries in flight at the SIGTERM: the merchant's endpoint answers each after 6 s.
    const answerAfterMs = 6_000;
    receiver = await startWebhookReceiver(() => ({ status: 204, delayMs: answerAfterMs }));
    const db = await getDb();
    const hooked = await createMerchant({ webhookUrl: receiver.url() });
    // Six refused payments of the hooked merchant: six payment.failed events to deliver.
    const hookedApi = apiClient(baseUrl);
    const ids: string[] = [];
    for (let index = 0; index < 6; index += 1) ids.push((await realEvent(hookedApi, hooked, "failed")).id);
    await receiver.waitFor(() => receiver.received.length >= 1, 30_000);

    const load = startLoad(8);
    await waitFor("load before the stop", () => load.outcomes.length >= 40 && load.inFlight() > 0, 60_000);
    const deliveriesInFlight = receiver.received.filter(
      (request) => Date.now() - request.receivedAt < answerAfterMs,
    ).length;
    const sentBeforeStop = load.stop();
    gateway.kill("SIGTERM");
    await sentBeforeStop;
    const code = await new Promise<number | null>((resolve) =>
      gateway.exitCode !== null ? resolve(gateway.exitCode) : gateway.once("exit", (exitCode) => resolve(exitCode)),
    );

    expect(deliveriesInFlight).toBeGreaterThan(0);
    expect(code).toBe(0);
    const failed = load.outcomes.filter((outcome) => outcome.status !== 200 && outcome.status !== 201);
    expect(failed).toEqual([]);
    // Every delivery it started was finished and recorded: no lease is left behind.
    const rows = await db.select().from(notifications).where(inArray(notifications.id, ids));
    expect(rows.filter((row) => row.leasedBy !== null)).toEqual([]);
    const attempted = rows.filter((row) => row.attemptCount > 0);
    expect(attempted.length).toBeGreaterThan(0);
    expect(attempted.every((row) => row.status === "delivered")).toBe(true);
  }, 120_000);
});

// One server accepts its connections itself (serve.mjs sets SCHED_NONE): the restart's
// replacement shares the listening socket with it instead of the primary handing connections over.
describe("npm start with one server", () => {
  beforeAll(() => startGateway(1), 620_000);
  afterAll(stopGateway);

  it(
    "a rolling restart under load answers every request and replaces the server",
    () => rollingRestartUnderLoad(1),
    240_000,
  );
});
