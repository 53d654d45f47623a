import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { signIn } from "@/lib/console/access/sign-in";
import { recordSignInFailure } from "@/lib/console/access/sign-in-lockout";
import { deliverDueNotifications } from "@/lib/notifications/deliver-due-notifications";
import { installWalletTransport } from "@/lib/wallet-connection/wallet-connection";
import { collectBacklogMetrics } from "@/lib/jobs/observability-jobs";
import { reconcileProviderOperations } from "@/lib/provider-operation-registry/reconcile-provider-operations";
import { spawn } from "node:child_process";
import { createMerchant, randomPhone } from "../support/factories";
import { METRICS_TOKEN, moved, scrape } from "../support/metrics";
import { capture, paidIntent } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";
import { createConsoleUser, uniqueEmail } from "../support/console";
import { failingMoneyCalls } from "../support/wallet-faults";
import { startWebhookReceiver } from "../support/webhook-receiver";

vi.hoisted(() => {
  process.env.METRICS_TOKEN = "metrics-token-for-the-tests-0123456789abcdef";
  process.env.WALLET_PROVIDER_TIMEOUT_MS = "300";
});

const { api } = useTestGateway();
beforeAll(() => installWalletTransport(null));
afterEach(() => installWalletTransport(null));

describe("GET /api/metrics", () => {
  it("refuses a missing or wrong token with 401 in the error envelope, and answers the right one", async () => {
    const refusals: Record<string, string>[] = [
      {},
      { authorization: "Bearer not-the-token-not-the-token-not-the" },
      { authorization: `Basic ${METRICS_TOKEN}` },
      { authorization: `Bearer ${METRICS_TOKEN}x` },
    ];
    for (const headers of refusals) {
      const refused = await api.get("/api/metrics", headers);
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ code: 401, status: "error", error: { name: "invalid_credentials" } });
      expect(refused.headers.get("www-authenticate")).toContain("Bearer");
    }
    const answered = await api.get<string>("/api/metrics", { authorization: `Bearer ${METRICS_TOKEN}` });
    expect(answered.status).toBe(200);
    expect(answered.headers.get("content-type")).toContain("text/plain");
    expect(answered.body).toContain("# TYPE gateway_http_requests_total counter");
  });

  it("counts a payment via the API: state changes, its wallet call, its requests by route template", async () => {
    const merchant = await createMerchant();
    const { series: before } = await scrape(api);
    const intent = await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 700 });
    await capture(api, merchant, intent.paymentId, { amount: 500 });
    const { series: after } = await scrape(api);
    expect(moved(before, after)).toEqual({
      'gateway_payment_state_changes_total{method="WALLET_V2",from="CREATED",to="REQUIRES_ACTION"}': 1,
      'gateway_payment_state_changes_total{method="WALLET_V2",from="REQUIRES_ACTION",to="PRE_AUTHORIZED"}': 1,
      'gateway_payment_state_changes_total{method="WALLET_V2",from="PRE_AUTHORIZED",to="SUCCEEDED"}': 1,
      'gateway_provider_calls_total{provider="wallet",operation="hold",outcome="ok"}': 1,
      'gateway_provider_calls_total{provider="wallet",operation="capture",outcome="ok"}': 1,
      'gateway_provider_call_duration_seconds_count{provider="wallet",operation="hold"}': 1,
      'gateway_provider_call_duration_seconds_count{provider="wallet",operation="capture"}': 1,
    });
    const requests = moved(before, after, { keep: /^gateway_http_requests_total/ });
    expect(requests['gateway_http_requests_total{route="/api/v1/payments/intents",method="POST",status="201"}']).toBe(
      1,
    );
    expect(
      requests['gateway_http_requests_total{route="/api/v1/payments/intents/:id/capture",method="POST",status="200"}'],
    ).toBe(1);
  });

  it("counts a provider outage as unavailable or timeout, and the operation reconciling until settled", async () => {
    const db = await getDb();
    const merchant = await createMerchant();
    const first = await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 700 });
    const second = await paidIntent(api, merchant, { captureMethod: "RESERVATION", amount: 700 });
    await collectBacklogMetrics(db);
    const { series: before } = await scrape(api);
    installWalletTransport(failingMoneyCalls("5xx"));
    expect((await capture(api, merchant, first.paymentId, { amount: 500 })).status).toBe(503);
    installWalletTransport(failingMoneyCalls("timeout"));
    expect((await capture(api, merchant, second.paymentId, { amount: 500 })).status).toBe(503);
    installWalletTransport(null);
    await collectBacklogMetrics(db);
    const { series: after } = await scrape(api);
    expect(moved(before, after, { keep: /^gateway_provider_operation/ })).toMatchObject({
      'gateway_provider_calls_total{provider="wallet",operation="capture",outcome="unavailable"}': 1,
      'gateway_provider_calls_total{provider="wallet",operation="capture",outcome="timeout"}': 1,
      gateway_provider_operations_awaiting_reconciliation: 2,
    });
    expect(after.get("gateway_provider_operation_oldest_awaiting_seconds")).toBeGreaterThanOrEqual(0);

    // Reconciliation settles both (their retry is due 5 s later): the backlog is back where it was.
    const later = new Date(Date.now() + 60_000);
    for (const intent of [first, second])
      await reconcileProviderOperations(db, { now: later, paymentId: intent.paymentId });
    await collectBacklogMetrics(db);
    const { series: settled } = await scrape(api);
    expect(settled.get("gateway_provider_operations_awaiting_reconciliation")).toBe(
      before.get("gateway_provider_operations_awaiting_reconciliation"),
    );
  });

  it("counts a failing webhook receiver's attempts as failed, and the notifications due until tried", async () => {
    const db = await getDb();
    const receiver = await startWebhookReceiver(() => ({ status: 500 }));
    try {
      const merchant = await createMerchant({ webhookUrl: receiver.url("/down") });
      await paidIntent(api, merchant);
      await collectBacklogMetrics(db);
      const { series: before } = await scrape(api);
      expect(before.get("gateway_webhooks_due")).toBeGreaterThanOrEqual(1);
      await deliverDueNotifications(db, { schedule: [300] });
      await collectBacklogMetrics(db);
      const { series: after } = await scrape(api);
      const changes = moved(before, after);
      expect(changes['gateway_webhook_deliveries_total{outcome="failed"}']).toBeGreaterThanOrEqual(1);
      expect(changes['gateway_webhook_deliveries_total{outcome="delivered"}']).toBeUndefined();
      expect(after.get("gateway_webhooks_due")).toBeLessThan(before.get("gateway_webhooks_due")!);
      expect(received(receiver)).toBeGreaterThanOrEqual(1);
    } finally {
      await receiver.close();
    }
  });

  it("counts console sign-in failures and the lockout the tenth one begins", async () => {
    const db = await getDb();
    const user = await createConsoleUser([], uniqueEmail("locked"));
    const { series: before } = await scrape(api);
    // Nine failures as the code step records them (no password hash to wait for), then two wrong passwords.
    for (let attempt = 0; attempt < 9; attempt += 1) await recordSignInFailure(db, user.email, new Date());
    expect(await signIn(db, { email: user.email, password: "not the password", ip: null })).toEqual({
      outcome: "refused",
    });
    expect(await signIn(db, { email: user.email, password: "not the password", ip: null })).toMatchObject({
      outcome: "locked",
    });
    const { series: after } = await scrape(api);
    // The eleventh attempt is refused as locked: neither checked nor counted.
    expect(moved(before, after)).toEqual({
      gateway_console_sign_in_failures_total: 10,
      gateway_console_sign_in_lockouts_total: 1,
    });
  });
});

function received(receiver: { received: unknown[] }): number {
  return receiver.received.length;
}

describe("one view of every process", () => {
  it("sums two server processes and the job runner with this one", async () => {
    const created = 'gateway_http_requests_total{route="/api/v1/payments/intents",method="POST",status="201"}';
    const { series: before } = await scrape(api);
    // Two servers (each publishing every 5 s, as `npm start`'s do) and the job runner: `npm run worker`
    // with its backlog collection, until its snapshot says it ran.
    const servers = [3, 4].map((count) =>
      spawn(process.execPath, ["--import", "tsx", "tests/support/metrics-process.ts", String(count)], {
        env: process.env,
        stdio: ["ignore", "pipe", "inherit"],
      }),
    );
    const worker = spawn(process.execPath, ["--import", "tsx", "scripts/worker.ts", "--only", "metrics.backlogs"], {
      env: process.env,
      stdio: "ignore",
    });
    try {
      await Promise.all(
        servers.map(
          (server) =>
            new Promise((resolve) =>
              server.stdout!.on("data", (chunk: Buffer) => chunk.toString().includes("published") && resolve(true)),
            ),
        ),
      );
      const job = 'gateway_job_last_success_timestamp_seconds{job="metrics.backlogs"}';
      let after = (await scrape(api)).series;
      for (let waited = 0; !after.has(job) && waited < 90_000; waited += 500) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        after = (await scrape(api)).series;
      }
      expect(after.get(job)).toBeGreaterThan(Date.now() / 1000 - 120);
      expect((after.get(created) ?? 0) - (before.get(created) ?? 0)).toBe(7);
      expect(after.get("gateway_metrics_processes")).toBeGreaterThanOrEqual(4);
    } finally {
      for (const child of [worker, ...servers]) child.kill("SIGTERM");
      await Promise.all([worker, ...servers].map((child) => new Promise((resolve) => child.once("exit", resolve))));
    }
  }, 120_000);
});

describe("labels", () => {
  it("carry no id, phone, amount or secret", async () => {
    const merchant = await createMerchant();
    const phone = randomPhone();
    const intent = await paidIntent(api, merchant, { amount: 4_321, userId: phone });
    await api.get(`/api/v1/customers/search/${encodeURIComponent(phone)}`, {
      authorization: "Basic bm90OmFjcmVkZW50aWFs",
    });
    await api.get(`/api/v1/payments/intents/${intent.paymentId}/check`);
    const { text } = await scrape(api);
    const values = [...text.matchAll(/="([^"]*)"/g)].map((match) => match[1]!);
    expect(values.length).toBeGreaterThan(50);
    const offending = values.filter(
      (value) =>
        /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.test(value) || // an id
        /\+?\d{8,}/.test(value) || // a phone, an amount in minor units, a card number
        /^\d{3,}$/.test(value.replace(/^[1-5]\d\d$/, "")) || // an amount (a status is three digits 1xx-5xx)
        /(secret|token|whsec_|pk_service_|cat_|crt_|sk_|Bearer)/i.test(value), // a credential
    );
    expect(offending).toEqual([]);
    for (const known of [
      intent.paymentId,
      phone,
      phone.slice(1),
      "4321",
      "432100",
      merchant.clientId,
      merchant.clientSecret,
      merchant.publishableKey,
      METRICS_TOKEN,
    ]) {
      expect(text).not.toContain(known);
    }
  });
});
