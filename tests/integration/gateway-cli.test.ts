import { spawn } from "node:child_process";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gatewayApi } from "@/lib/devkit/gateway-api";
import { EventListener } from "@/lib/devkit/listen-events";
import { TRIGGERABLE_EVENTS, triggerEvent } from "@/lib/devkit/trigger-event";
import type { OnboardedMerchant } from "@/lib/merchants/onboard-merchant.schema";
import { clientAuth } from "../support/api";
import { createMerchant } from "../support/factories";
import { paidIntent } from "../support/payments";
import { runScript } from "../support/run-script";
import { useTestGateway } from "../support/test-gateway";
import { startWebhookReceiver, type WebhookReceiver } from "../support/webhook-receiver";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CLI_TIMEOUT = 120_000;
const gateway = useTestGateway();
let merchant: OnboardedMerchant;
let receiver: WebhookReceiver;

beforeAll(async () => {
  merchant = await createMerchant();
  receiver = await startWebhookReceiver();
});
afterAll(() => receiver.close());

const credentials = () => ({
  baseUrl: gateway.baseUrl,
  clientId: merchant.clientId,
  clientSecret: merchant.clientSecret,
});
const cliCredentials = () => [
  "--base-url",
  gateway.baseUrl,
  "--client-id",
  merchant.clientId,
  "--client-secret",
  merchant.clientSecret,
];

describe("trigger <event-type>", () => {
  it.each(TRIGGERABLE_EVENTS)("drives a sandbox payment to %s, which the Events API then lists", async (type) => {
    const { paymentId } = await triggerEvent(gatewayApi(credentials()), { event: type, service: merchant.service });
    const events = await gateway.api.get(`/api/v1/events?paymentId=${paymentId}&type=${type}`, clientAuth(merchant));
    expect(events.body.data).toHaveLength(1);
    expect(events.body.data[0].data.paymentId).toBe(paymentId);
  });

  it(
    "works from the command line and refuses an unknown event type with the list",
    async () => {
      const ok = await runScript("scripts/gateway.ts", ["trigger", "payment.refunded", ...cliCredentials()]);
      expect(ok.code, ok.stderr).toBe(0);
      expect(ok.stdout).toMatch(/^Triggered payment\.refunded: payment [0-9a-f-]{36} \(statusCode 4\)/);
      const bad = await runScript("scripts/gateway.ts", ["trigger", "payment.exploded", ...cliCredentials()]);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain(`Unknown event type payment.exploded; one of ${TRIGGERABLE_EVENTS.join(", ")}`);
    },
    CLI_TIMEOUT,
  );
});

describe("listen --forward-to", () => {
  it("forwards only new events, oldest first, signed with the service's secret and event's webhook-id", async () => {
    await paidIntent(gateway.api, merchant); // before listening: not forwarded
    const forwarded: string[] = [];
    const listener = new EventListener({
      api: gatewayApi(credentials()),
      forwardTo: receiver.url("/in-process"),
      webhookSecret: merchant.webhookSecret,
      onForward: (result) => forwarded.push(`${result.event.type} ${result.status}`),
    });
    expect(await listener.poll()).toEqual([]);
    const held = await paidIntent(gateway.api, merchant, { captureMethod: "RESERVATION" });
    await triggerEvent(gatewayApi(credentials()), { event: "payment.failed", service: merchant.service });
    const results = await listener.poll();
    expect(forwarded).toEqual(["payment.pre_authorized 204", "payment.failed 204"]);
    const hooks = receiver.received.filter((hook) => hook.path === "/in-process");
    expect(hooks.map((hook) => hook.headers["webhook-id"])).toEqual(results.map((result) => result.event.id));
    for (const hook of hooks)
      expect(() => new Webhook(merchant.webhookSecret).verify(hook.body, hook.headers)).not.toThrow();
    expect(JSON.parse(hooks[0]!.body).data.paymentId).toBe(held.paymentId);
    expect(await listener.poll()).toEqual([]); // nothing twice
  });

  it(
    "runs from the command line until stopped, printing each forward",
    async () => {
      // Node itself (not npx, whose SIGTERM would leave the listener polling the test gateway and
      // keep its close() waiting): the signal below reaches the listener.
      const child = spawn(
        process.execPath,
        [
          "--import",
          "tsx",
          "scripts/gateway.ts",
          "listen",
          "--forward-to",
          receiver.url("/cli"),
          "--webhook-secret",
          merchant.webhookSecret,
          "--interval",
          "0.3",
          ...cliCredentials(),
        ],
        {
          cwd: ROOT,
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      try {
        await waitFor(() => stdout.includes("Ready."), 60_000);
        const paid = await paidIntent(gateway.api, merchant);
        await receiver.waitFor(() => receiver.received.some((hook) => hook.path === "/cli"), 30_000);
        const hook = receiver.received.find((entry) => entry.path === "/cli")!;
        expect(JSON.parse(hook.body)).toMatchObject({ type: "payment.succeeded", data: { paymentId: paid.paymentId } });
        expect(() => new Webhook(merchant.webhookSecret).verify(hook.body, hook.headers)).not.toThrow();
        await waitFor(() => stdout.includes(`payment.succeeded  ${hook.headers["webhook-id"]}  -> 204`), 10_000);
      } finally {
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await exited;
      }
    },
    CLI_TIMEOUT,
  );

  it(
    "takes a client secret that starts with a dash as the value it is",
    async () => {
      const result = await runScript(
        "scripts/gateway.ts",
        [
          "listen",
          "--forward-to",
          receiver.url(),
          "--base-url",
          gateway.baseUrl,
          "--client-id",
          merchant.clientId,
          "--client-secret",
          "-starts-with-a-dash",
        ],
        { GATEWAY_WEBHOOK_SECRET: undefined },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        "Give the service's webhook secret (whsec_...): --webhook-secret or GATEWAY_WEBHOOK_SECRET",
      );
    },
    CLI_TIMEOUT,
  );

  it(
    "says how to give the webhook secret when it is missing",
    async () => {
      const result = await runScript(
        "scripts/gateway.ts",
        ["listen", "--forward-to", receiver.url(), ...cliCredentials()],
        { GATEWAY_WEBHOOK_SECRET: undefined },
      );
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        "Give the service's webhook secret (whsec_...): --webhook-secret or GATEWAY_WEBHOOK_SECRET",
      );
    },
    CLI_TIMEOUT,
  );
});

async function waitFor(predicate: () => boolean, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
