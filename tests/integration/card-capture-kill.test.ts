import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { getDb } from "@/lib/db/client";
import { paymentCaptures, providerOperations } from "@/lib/db/schema";
import { cardProviderPaymentIntents } from "@/simulators/card/card-tables";
import { startStripeSimulator, type StripeSimulator } from "@/simulators/card/stripe-simulator";
import { clientAuth } from "../support/api";
import { completeOnPage, confirmAtProvider, notificationsOf, proceedWithCard, TEST_CARDS } from "../support/cards";
import { createMerchant } from "../support/factories";
import { paymentRow } from "../support/payments";
import { freePort, spawnGateway, waitFor, type SpawnedGateway } from "../support/spawned-gateway";
import { useTestGateway } from "../support/test-gateway";

/**
 * Issue 11: a real gateway process (npm start's server, the Stripe adapter on the simulator over
 * HTTP) is SIGKILLed after Stripe applied a capture and before the gateway settled it. A new
 * process's reconciliation job asks Stripe again with the same idempotency key and settles the
 * payment once: one capture at Stripe, one in the books, one notification.
 */
const { api } = useTestGateway();
let simulator: StripeSimulator | null = null;
let gateway: SpawnedGateway | null = null;

afterAll(async () => {
  if (gateway && gateway.process.exitCode === null) gateway.process.kill("SIGKILL");
  await simulator?.close();
});

describe("a gateway process killed between the provider call and the settle", () => {
  it("leaves the capture pending, and the restarted gateway's reconciliation settles it once", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const proceeded = await proceedWithCard(api, merchant, { intent: { captureMethod: "RESERVATION" } });
    const confirmed = await confirmAtProvider(api, proceeded, { card: TEST_CARDS.visa });
    await completeOnPage(proceeded, confirmed.paymentIntentId);
    expect((await paymentRow(proceeded.paymentId)).state).toBe("PRE_AUTHORIZED");

    simulator = await startStripeSimulator({ db: getDb });
    const port = await freePort();
    const env = { CARD_PROVIDER_API_URL: simulator.url };
    gateway = await spawnGateway(port, env);

    // Stripe applies the capture, then its answer never comes back; the gateway waits for it.
    simulator.inject(/^POST \/v1\/payment_intents\/[^/]+\/capture$/, "timeout_after");
    const capturePath = `/api/v1/payments/intents/${proceeded.paymentId}/capture`;
    const inFlight = fetch(`http://127.0.0.1:${port}${capturePath}`, {
      method: "POST",
      headers: {
        ...clientAuth(merchant),
        "content-type": "application/json",
        "idempotency-key": `kill-${proceeded.paymentId}`,
      },
      body: JSON.stringify({ amount: 10 }),
    }).catch((error: unknown) => error);
    const intentOf = async () =>
      (
        await db
          .select()
          .from(cardProviderPaymentIntents)
          .where(eq(cardProviderPaymentIntents.id, confirmed.paymentIntentId))
      )[0]!;
    await waitFor("Stripe to apply the capture", async () => (await intentOf()).status === "succeeded", 60_000);

    gateway.process.kill("SIGKILL");
    await new Promise((resolve) => gateway!.process.once("exit", resolve));
    expect(await inFlight).toBeInstanceOf(Error);
    const [pending] = await db
      .select()
      .from(providerOperations)
      .where(eq(providerOperations.paymentId, proceeded.paymentId));
    expect(pending).toMatchObject({ kind: "capture", status: "pending" });
    expect((await paymentRow(proceeded.paymentId)).state).toBe("PRE_AUTHORIZED");

    // A new process: its job finds the operation once its lease is over and asks Stripe again.
    gateway = await spawnGateway(port, env);
    await waitFor(
      "reconciliation to settle the capture",
      async () => (await paymentRow(proceeded.paymentId)).state === "SUCCEEDED",
      120_000,
    );

    const captureCalls = simulator.requests.filter((line) => /^POST \/v1\/payment_intents\/[^/]+\/capture$/.test(line));
    // The killed request's, and reconciliation's with the same key.
    expect(captureCalls.length).toBeGreaterThanOrEqual(2);
    expect(await intentOf()).toMatchObject({ status: "succeeded", amountReceivedMinor: 1000 });
    expect(
      await db.select().from(paymentCaptures).where(eq(paymentCaptures.paymentId, proceeded.paymentId)),
    ).toHaveLength(1);
    expect(await paymentRow(proceeded.paymentId)).toMatchObject({ state: "SUCCEEDED", capturedMinor: 1000 });
    expect((await notificationsOf(proceeded.paymentId)).map((n) => n.type)).toEqual([
      "payment.pre_authorized",
      "payment.captured",
    ]);
  }, 300_000);
});
