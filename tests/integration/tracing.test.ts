import { randomBytes } from "node:crypto";
import { SpanKind } from "@opentelemetry/api";
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { tracePageRequest } from "@/lib/hosted/trace-page";
import { startTracing } from "@/lib/tracing/start-tracing";
import { createMerchant, randomPhone } from "../support/factories";
import { createIntent } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";

const logged = vi.hoisted(() => ({ lines: [] as string[] }));
vi.mock("@/lib/log", async (importOriginal) =>
  (await import("../support/memory-log")).memoryLog(importOriginal, logged.lines, "info"),
);

const gateway = useTestGateway();
const { api } = gateway;
const exporter = new InMemorySpanExporter();
beforeAll(async () => {
  await startTracing({ db: await getDb(), spanProcessors: [new SimpleSpanProcessor(exporter)] });
});

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("traces (OpenTelemetry, an in-memory exporter)", () => {
  it("gives a create its request span, operation span, a span per statement, its log line the trace id", async () => {
    const merchant = await createMerchant();
    const phone = randomPhone();
    exporter.reset();
    logged.lines.length = 0;
    const created = await createIntent(api, merchant, { userId: phone });

    const spans = exporter.getFinishedSpans();
    const request = spans.find((span) => span.name === "POST /api/v1/payments/intents");
    expect(request).toBeDefined();
    expect(request!.attributes).toMatchObject({
      "http.route": "/api/v1/payments/intents",
      "http.response.status_code": 201,
    });
    const traceId = request!.spanContext().traceId;
    const operation = spans.find((span) => span.name === "operation createPaymentIntent");
    expect(operation?.spanContext().traceId).toBe(traceId);
    expect(parentOf(operation!)).toBe(request!.spanContext().spanId);
    const statements = spans.filter((span) => span.name.startsWith("db ") && span.spanContext().traceId === traceId);
    expect(statements.length).toBeGreaterThanOrEqual(1);
    for (const statement of statements) {
      expect(statement.attributes["db.system.name"]).toBe("postgresql");
      expect([operation!.spanContext().spanId, request!.spanContext().spanId]).toContain(parentOf(statement));
    }
    expect(statements.some((span) => parentOf(span) === operation!.spanContext().spanId)).toBe(true);

    // Nothing secret, no phone, in any attribute of the trace.
    const attributes = JSON.stringify(
      spans.filter((span) => span.spanContext().traceId === traceId).map((span) => span.attributes),
    );
    for (const secret of [phone, phone.slice(1), merchant.clientSecret, created.clientSecret, "Bearer", "Basic"])
      expect(attributes).not.toContain(secret);

    const line = logged.lines
      .map((text) => JSON.parse(text))
      .find((entry) => entry.msg === "request" && entry.path === "/api/v1/payments/intents");
    expect(line).toMatchObject({ status: 201, traceId });
  });

  describe("a page the lanes serve (the door's page hook, as instrumentation.ts sets it with traces on)", () => {
    const hooks = globalThis as { gatewayTracePage?: unknown };
    beforeAll(() => {
      hooks.gatewayTracePage = tracePageRequest;
    });
    afterAll(() => {
      delete hooks.gatewayTracePage;
    });

    /** The server span of one page request, found by the trace its traceparent names. */
    async function pageSpan(path: string): Promise<{ status: number; span: ReadableSpan | undefined }> {
      const traceId = randomBytes(16).toString("hex");
      exporter.reset();
      const response = await fetch(`${gateway.baseUrl}${path}`, {
        redirect: "manual",
        headers: { traceparent: `00-${traceId}-${randomBytes(8).toString("hex")}-01` },
      });
      await response.arrayBuffer();
      // The span ends once the answer is sent, just after the client has it.
      const span = await vi.waitFor(() => {
        const found = exporter
          .getFinishedSpans()
          .find((candidate) => candidate.spanContext().traceId === traceId && candidate.kind === SpanKind.SERVER);
        expect(found).toBeDefined();
        return found;
      });
      return { status: response.status, span };
    }

    it("names a console page's span by the console lane's route template, as its metrics", async () => {
      const { status, span } = await pageSpan("/fr/console/sign-in");
      expect(status).toBe(200);
      expect(span?.name).toBe("GET /[locale]/console/sign-in");
      expect(span?.attributes).toMatchObject({
        "http.route": "/[locale]/console/sign-in",
        "http.response.status_code": 200,
      });
    });

    it("names a hosted page's span by the hosted lane's route template, never by the payment's id", async () => {
      const merchant = await createMerchant();
      const { paymentId } = await createIntent(api, merchant);
      const { status, span } = await pageSpan(`/fr/pay/otp/${paymentId}?token=not-the-token`);
      expect(status).toBe(404);
      expect(span?.name).toBe("GET /[locale]/pay/otp/[paymentId]");
      expect(span?.attributes).toMatchObject({
        "http.route": "/[locale]/pay/otp/[paymentId]",
        "http.response.status_code": 404,
      });
      expect(JSON.stringify(span?.attributes)).not.toContain(paymentId);
    });
  });
});
