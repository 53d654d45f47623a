// Webhook delivery throughput: `npx tsx scripts/bench-webhooks.ts [--count 5000] [--concurrency 64 ...]`.
// Enqueues notifications for a local receiver (127.0.0.1, answers 204 at once) and times how
// fast one worker pass drains them, signing, POSTing and recording each. Use a scratch
// database: DATABASE_URL=postgres://.../scratch (or none for the embedded one, in memory).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { closeDatabase, getDb, onQuery } from "../lib/db/client";
import { services } from "../lib/db/schema";
import { onboardMerchant } from "../lib/merchants/onboard-merchant";
import { deliverDueNotifications } from "../lib/notifications/deliver-due-notifications";
import { enqueueNotification } from "../lib/notifications/enqueue-notification";

process.env.LOG_LEVEL ??= "silent";
if (!process.env.DATABASE_URL) process.env.PGLITE_DIR ??= "memory://";

async function main() {
  const { values } = parseArgs({
    options: { count: { type: "string", default: "5000" }, concurrency: { type: "string", multiple: true } },
  });
  const count = Number(values.count);
  const levels = (values.concurrency ?? ["16", "64", "128"]).map(Number);

  let received = 0;
  const receiver = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      received += 1;
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const db = await getDb();
  const merchant = await onboardMerchant(db, { name: `Bench ${Date.now()}`, countries: ["DZA"], webhookUrl: url });
  const [service] = await db.select({ id: services.id }).from(services).where(eq(services.code, merchant.service));

  console.log(`${count} notifications per run, driver ${process.env.DATABASE_URL ? "postgres" : "pglite"}`);
  for (const concurrency of levels) {
    await db.transaction(async (tx) => {
      for (let index = 0; index < count; index += 1) {
        await enqueueNotification(tx, {
          serviceId: service!.id,
          type: "payment.succeeded",
          data: {
            paymentId: crypto.randomUUID(),
            actionId: `bench-${index}`,
            remoteStatusCode: 2,
            statusCode: 2,
            status: "SUCCEEDED",
            amount: 125.5,
            currency: "DZD",
          },
          now: new Date(),
        });
      }
    });
    received = 0;
    let statements = 0;
    const stopCounting = onQuery(() => (statements += 1));
    const started = performance.now();
    const attempts = await deliverDueNotifications(db, { concurrency, claimForMs: Infinity });
    const seconds = (performance.now() - started) / 1000;
    stopCounting();
    console.log(
      `concurrency ${String(concurrency).padStart(3)}: ${attempts} attempts, ` +
        `${received} received in ${seconds.toFixed(2)} s` +
        ` = ${Math.round(attempts / seconds)} deliveries/s, ${statements} SQL statements`,
    );
  }
  receiver.close();
  await closeDatabase();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
