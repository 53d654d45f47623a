import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getConfig } from "@/lib/config";
import { getDb } from "@/lib/db/client";
import { services } from "@/lib/db/schema";
import { logIgnoredReturnUrl } from "@/lib/hosted/resolve-return-target";
import { DEMO_MERCHANT_NAME, demoMerchantServiceId, forgetDemoMerchant } from "@/lib/merchants/demo-merchant";
import { ensureDemoMerchant } from "@/lib/merchants/ensure-demo-merchant";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { deliverDueNotifications } from "@/lib/notifications/deliver-due-notifications";
import { browserHeaders, check, createIntent, paidIntent } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";

const logged = vi.hoisted(() => ({ lines: [] as string[] }));
vi.mock("@/lib/log", async (importOriginal) =>
  (await import("../support/memory-log")).memoryLog(importOriginal, logged.lines, "info"),
);

const gateway = useTestGateway();
let firstStart: OnboardedMerchant | null = null;

describe("the sandbox demo merchant", () => {
  it("allows local origins on any port; its webhooks come to the gateway's /api/sandbox/demo-webhooks", async () => {
    // Other suites start the real entry on this database, which makes a demo merchant whose
    // secrets were printed there; set it aside so this test sees a first start.
    await (
      await getDb()
    )
      .update(services)
      .set({ name: `${DEMO_MERCHANT_NAME} (earlier)` })
      .where(eq(services.name, DEMO_MERCHANT_NAME));
    await forgetDemoMerchant(await getDb());
    const demo = await ensureDemoMerchant(await getDb(), gateway.baseUrl);
    expect(demo).not.toBeNull();
    firstStart = demo;

    // A local shop's browser on any port may call merchant_auth endpoints.
    const intent = await createIntent(gateway.api, demo!);
    const fromLocalShop = await check(
      gateway.api,
      intent.paymentId,
      browserHeaders(demo!, intent.clientSecret, { origin: "http://localhost:5173" }),
    );
    expect(fromLocalShop.status).toBe(200);
    const fromElsewhere = await check(
      gateway.api,
      intent.paymentId,
      browserHeaders(demo!, intent.clientSecret, { origin: "http://evil.example" }),
    );
    expect(fromElsewhere.status).toBe(403);

    const paid = await paidIntent(gateway.api, demo!);
    await deliverDueNotifications(await getDb(), { schedule: [60], claimForMs: 500 });
    const page = await gateway.api.get("/api/sandbox/demo-webhooks");
    expect(page.status).toBe(200);
    const hook = page.body.received.find(
      (entry: { body: { data: { paymentId: string } } }) => entry.body.data.paymentId === paid.paymentId,
    );
    expect(hook).toMatchObject({ signatureValid: true, body: { type: "payment.succeeded" } });
    expect(getConfig().isSandbox).toBe(true);
  });

  it("stays the demo merchant when its owner renames it: webhooks still verify and no second one is made", async () => {
    const db = await getDb();
    const demoId = (await demoMerchantServiceId(db))!;
    const [demoCode] = await db.select({ code: services.code }).from(services).where(eq(services.id, demoId));
    expect(demoCode!.code).toBe(firstStart!.service);
    await db.update(services).set({ name: "Boutique Yasmine" }).where(eq(services.id, demoId));

    // The next start finds it by its id: nothing new, no second "Demo Shop".
    expect(await ensureDemoMerchant(db, gateway.baseUrl)).toBeNull();
    expect(await db.select({ id: services.id }).from(services).where(eq(services.name, DEMO_MERCHANT_NAME))).toEqual(
      [],
    );

    const paid = await paidIntent(gateway.api, firstStart!);
    await deliverDueNotifications(db, { schedule: [60], claimForMs: 500 });
    const page = await gateway.api.get("/api/sandbox/demo-webhooks");
    const hook = page.body.received.find(
      (entry: { body: { data: { paymentId: string } } }) => entry.body.data.paymentId === paid.paymentId,
    );
    expect(hook).toMatchObject({ signatureValid: true, body: { type: "payment.succeeded" } });
  });

  it("refuses a webhook whose signature does not verify with 400", async () => {
    const response = await gateway.api.call("POST", "/api/sandbox/demo-webhooks", {
      rawBody: "{}",
      headers: {
        "webhook-id": "msg_x",
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": "v1,AAAA",
      },
    });
    expect(response.status).toBe(400);
  });

  it("logs an ignored returnUrl with its origin and why, never its path or query", () => {
    logIgnoredReturnUrl("3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12", { field: "returnUrl", origin: "https://shop.example" });
    const line = JSON.parse(logged.lines.find((text) => text.includes("returnUrl ignored"))!);
    expect(line).toMatchObject({
      level: 40,
      paymentId: "3f1c2a9e-8d4b-4c3e-9a51-2b7d6e0f4a12",
      origin: "https://shop.example",
      msg: "returnUrl ignored: its origin is neither the service's redirect URL origin nor allow-listed",
    });
  });
});
