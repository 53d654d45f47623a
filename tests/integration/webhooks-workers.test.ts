import { spawn, type ChildProcess } from "node:child_process";
import { hostname } from "node:os";
import path from "node:path";
import { eq, inArray, sql } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDatabase, getDb, type Db } from "@/lib/db/client";
import { recreateDatabase, recreateSiblingDatabase } from "../../scripts/lib/recreate-database";
import { notificationAttempts, notifications, services } from "@/lib/db/schema";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { enqueueNotification } from "@/lib/notifications/enqueue-notification";
import { createMerchant } from "../support/factories";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

/*
 * Worker processes (`scripts/worker.ts`) sharing one PostgreSQL: what a restart and a second
 * gateway instance do to deliveries. The embedded database cannot be shared between processes,
 * so these run only with DATABASE_URL; webhooks-delivery.test.ts covers the same rules in one
 * process on both drivers. They use their own database, so no other test file's pass of the
 * delivery worker can take their notifications.
 */
const baseUrl = process.env.DATABASE_URL!;
const ROOT = path.resolve(import.meta.dirname, "../..");

let db: Db;
const children = new Set<ChildProcess>();
const receivers: WebhookReceiver[] = [];

describe("webhook worker processes on PostgreSQL", () => {
  let workersUrl = "";

  beforeAll(async () => {
    workersUrl = await recreateSiblingDatabase(baseUrl, "_workers");
    process.env.DATABASE_URL = workersUrl; // read once, by the first getDb() below
    db = await getDb();
  });
  afterAll(async () => {
    for (const child of children) child.kill("SIGKILL");
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await closeDatabase();
    await recreateDatabase(workersUrl, { dropOnly: true });
  });

  function startWorker(): Promise<ChildProcess> {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts", "--only", "webhook-delivery"], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: workersUrl, LOG_LEVEL: "silent", WEBHOOK_RETRY_SCHEDULE: "1,1,1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.add(child);
    child.on("exit", () => children.delete(child));
    return new Promise((resolve, reject) => {
      let output = "";
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Worker (")) resolve(child);
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.on("exit", (code) => reject(new Error(`worker exited (${code}) before it was ready:\n${output}`)));
    });
  }

  function exitOf(child: ChildProcess): Promise<number | null> {
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
    return new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  async function serviceIdOf(merchant: OnboardedMerchant) {
    const [row] = await db.select({ id: services.id }).from(services).where(eq(services.code, merchant.service));
    return row!.id;
  }

  async function waitUntil(condition: () => Promise<boolean>, timeoutMs = 20_000) {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error("condition not met in time");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const payment = (index: number) => ({
    paymentId: crypto.randomUUID(),
    actionId: `order-${index}`,
    remoteStatusCode: 2,
    statusCode: 2,
    status: "SUCCEEDED",
    amount: 10,
    currency: "DZD",
  });

  it(
    "completes the delivery of a worker killed mid-delivery once a restarted worker takes over",
    { timeout: 60_000 },
    async () => {
      const receiver = await startWebhookReceiver((_request, received) =>
        received.length === 1 ? "hold" : { status: 204 },
      );
      receivers.push(receiver);
      const merchant = await createMerchant({ webhookUrl: receiver.url("/hook") });
      const id = await enqueueNotification(db, {
        serviceId: await serviceIdOf(merchant),
        type: "payment.succeeded",
        data: payment(1),
        now: new Date(),
      });

      const first = await startWorker();
      await receiver.waitFor(() => receiver.received.length === 1); // the worker is mid-delivery
      first.kill("SIGKILL");
      await exitOf(first);
      const [leftBehind] = await db.select().from(notifications).where(eq(notifications.id, id));
      expect(leftBehind).toMatchObject({ status: "pending", attemptCount: 1, leasedBy: `${hostname()}:${first.pid}` });

      // The lease (60 s) runs out, then a new worker starts.
      await db
        .update(notifications)
        .set({ nextAttemptAt: sql`now()` })
        .where(eq(notifications.id, id));
      const second = await startWorker();
      await waitUntil(
        async () => (await db.select().from(notifications).where(eq(notifications.id, id)))[0]?.status === "delivered",
      );

      expect(receiver.received.map((request) => request.headers["webhook-id"])).toEqual([id, id]);
      for (const request of receiver.received) {
        expect(new Webhook(merchant.webhookSecret).verify(request.body, request.headers)).toMatchObject({ id });
      }
      const attempts = await db
        .select()
        .from(notificationAttempts)
        .where(eq(notificationAttempts.notificationId, id))
        .orderBy(notificationAttempts.attemptNumber);
      expect(attempts).toMatchObject([
        {
          attemptNumber: 1,
          responseStatus: null,
          error: expect.stringMatching(/interrupted/),
          workerId: `${hostname()}:${first.pid}`,
        },
        { attemptNumber: 2, responseStatus: 204, error: null, workerId: `${hostname()}:${second.pid}` },
      ]);

      second.kill("SIGTERM");
      expect(await exitOf(second)).toBe(0);
    },
  );

  it("two worker processes on one PostgreSQL deliver each notification exactly once", async () => {
    // Slow answers keep both workers busy at once, so they really contend for the rows.
    const receiver = await startWebhookReceiver(() => ({ status: 200, delayMs: 80 + Math.floor(Math.random() * 40) }));
    receivers.push(receiver);
    const merchant = await createMerchant({ webhookUrl: receiver.url("/many") });
    const serviceId = await serviceIdOf(merchant);
    const workers = await Promise.all([startWorker(), startWorker()]);

    const total = 500;
    const ids = await db.transaction(async (tx) => {
      const created: string[] = [];
      for (let index = 0; index < total; index += 1) {
        created.push(
          await enqueueNotification(tx, {
            serviceId,
            type: "payment.succeeded",
            data: payment(index),
            now: new Date(),
          }),
        );
      }
      return created;
    });
    await waitUntil(async () => {
      const [row] = await db
        .select({ delivered: sql<number>`count(*)::int` })
        .from(notifications)
        .where(sql`${inArray(notifications.id, ids)} AND ${notifications.status} = 'delivered'`);
      return row!.delivered === total;
    }, 60_000);
    await new Promise((resolve) => setTimeout(resolve, 500)); // room for any duplicate to show up

    const perId = new Map<string, number>();
    for (const request of receiver.received) {
      const id = request.headers["webhook-id"]!;
      perId.set(id, (perId.get(id) ?? 0) + 1);
    }
    expect(receiver.received).toHaveLength(total);
    expect(new Set(perId.keys())).toEqual(new Set(ids));
    expect([...perId.values()].filter((count) => count !== 1)).toEqual([]);
    const attempts = await db
      .select({ workerId: notificationAttempts.workerId, attemptNumber: notificationAttempts.attemptNumber })
      .from(notificationAttempts)
      .where(inArray(notificationAttempts.notificationId, ids));
    expect(attempts).toHaveLength(total);
    expect(attempts.every((attempt) => attempt.attemptNumber === 1)).toBe(true);
    expect(new Set(attempts.map((attempt) => attempt.workerId))).toEqual(
      new Set(workers.map((worker) => `${hostname()}:${worker.pid}`)),
    );

    for (const worker of workers) worker.kill("SIGTERM");
    expect(await Promise.all(workers.map(exitOf))).toEqual([0, 0]);
  }, 90_000);

  it(
    "in production, onboarding refuses a webhook URL that is not https or resolves to a private address",
    { timeout: 60_000 },
    async () => {
      // A production database of its own: the workers' one is sealed sandbox (lib/db/database-seal.ts).
      const productionUrl = await recreateSiblingDatabase(baseUrl, "_onboarding_prod");
      const production = {
        ...process.env,
        APP_ENV: "production",
        DATABASE_URL: productionUrl,
        GATEWAY_SECRET: Buffer.alloc(32, 7).toString("base64"),
        PUBLIC_BASE_URL: "https://pay.example",
        WALLET_PROVIDER_URL: "https://wallet.example",
        WALLET_PROVIDER_SECRET: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
      };
      const cases = [
        { url: "https://10.1.2.3/hook", refusal: /private/ },
        { url: "https://169.254.169.254/latest/meta-data", refusal: /metadata/ },
        { url: "https://localhost:8443/hook", refusal: /loopback/ },
        { url: "http://shop.example/hook", refusal: /https/ },
      ];
      for (const { url, refusal } of cases) {
        const result = await runCli(
          [
            "create",
            "--name",
            "Prod Shop",
            "--country",
            "DZA",
            "--webhook-url",
            url,
            "--card-provider-key",
            "pk_live_x",
            "--json",
          ],
          production,
        );
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(refusal);
        expect(result.stdout).toBe("");
      }
      await recreateDatabase(productionUrl, { dropOnly: true });
    },
  );

  function runCli(
    args: string[],
    env: NodeJS.ProcessEnv,
  ): Promise<{ code: number | null; stdout: string; stderr: string }> {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/merchant.ts", ...args], { cwd: ROOT, env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    return new Promise((resolve) => child.on("exit", (code) => resolve({ code, stdout, stderr })));
  }
});
