import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from "@opentelemetry/sdk-trace-base";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { getDb } from "@/lib/db/client";
import { startTracing } from "@/lib/tracing/start-tracing";
import { createMerchant, randomPhone } from "../support/factories";
import { createIntent } from "../support/payments";
import { useTestGateway } from "../support/test-gateway";

const logged = vi.hoisted(() => ({ lines: [] as string[] }));
vi.mock("@/lib/log", async (importOriginal) =>
  (await import("../support/memory-log")).memoryLog(importOriginal, logged.lines, "info"),
);

const { api } = useTestGateway();
const exporter = new InMemorySpanExporter();
beforeAll(async () => {
  await startTracing({ db: await getDb(), spanProcessors: [new SimpleSpanProcessor(exporter)] });
});

const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe("traces (OpenTelemetry, an in-memory exporter)", () => {
  it("gives a create its request and operation spans, one per statement, and its log line the trace id", async () => {
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
});
