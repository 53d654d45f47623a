import { Writable } from "node:stream";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createLogger,
  currentLogContext,
  logger,
  noteRequestPrincipal,
  runWithLogContext,
  mayHoldCredential,
  scrubCredentials,
} from "@/lib/log";
import { withRequestScope } from "@/lib/http/request-scope";
import { operationId } from "@/lib/provider-operations/provider-operation";

/** A logger writing JSON lines into an array, exactly as production writes them to stdout. */
function capturedLogger() {
  const lines: Record<string, any>[] = [];
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      raw.push(chunk.toString());
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { log: createLogger({ destination, level: "info" }), lines, raw };
}

const paymentId = "3f1c2a9e-5b7d-4c1e-9a2b-8d6e4f0a1b2c";
const clientSecret = `pa_${paymentId}_secret_${"ab12".repeat(16)}`;
const accessToken = `cat_${"Zk3".repeat(15)}`;
const issuedClientSecret = "Qm9vdHN0cmFwLXNlY3JldC1mb3ItdGVzdHMtb25seQ1"; // 43 chars, base64url
const cardNumber = "4242424242424242";

afterEach(() => vi.restoreAllMocks());

describe("log redaction", () => {
  it("redacts credential fields by name, at the top and nested", () => {
    const { log, raw } = capturedLogger();
    log.info(
      {
        clientSecret,
        request: {
          headers: { authorization: "Bearer abc", "x-client-secret": clientSecret, "x-client-token": accessToken },
        },
        body: { refreshToken: "crt_x", cvc: "123", webhookSecret: "whsec_y" },
        deeper: { body: { accessToken } },
      },
      "incoming",
    );
    const line = raw.join("");
    for (const secret of [clientSecret, accessToken, "Bearer abc", "crt_x", '"123"', "whsec_y"])
      expect(line).not.toContain(secret);
    expect(line).toContain("[redacted]");
  });

  it("scrubs credential-shaped text wherever it hides: messages, error stacks, unnamed fields", () => {
    const { log, raw } = capturedLogger();
    log.error(
      { err: new Error(`provider refused ${clientSecret}`), note: `token ${accessToken}` },
      `retry with ${issuedClientSecret}`,
    );
    log.info({ memo: `card ${cardNumber} used`, header: "Authorization: Bearer cGs6c2VjcmV0" }, "card");
    const output = raw.join("");
    for (const secret of [clientSecret, accessToken, issuedClientSecret, cardNumber, "cGs6c2VjcmV0"]) {
      expect(output).not.toContain(secret);
    }
  });

  it("keeps what support needs: payment ids, phone numbers, request ids, amounts and times", () => {
    const { log, lines } = capturedLogger();
    log.info({ paymentId, phone: "+213555123456", requestId: "req-1", amount: 1500, at: 1_732_200_000_000 }, "kept");
    expect(lines[0]).toMatchObject({
      paymentId,
      phone: "+213555123456",
      requestId: "req-1",
      amount: 1500,
      at: 1_732_200_000_000,
    });
  });

  it("scrubs a provider key too short to look like an issued secret", () => {
    const line = scrubCredentials(JSON.stringify({ msg: "stripe refused sk_test_51Hx9 and rk_live_7Qa" }));
    expect(line).toBe(JSON.stringify({ msg: "stripe refused sk_test_[redacted] and rk_live_[redacted]" }));
  });

  it("writes an access line as it came, without walking its literals", () => {
    const { log, raw } = capturedLogger();
    log.info(
      {
        requestId: "bb6e763a-f2b7-48bd-bed9-46ffc2076adf",
        method: "GET",
        path: `/api/v1/payments/intents/${paymentId}/check`,
        status: 200,
      },
      "request",
    );
    const line = raw[0]!.trim();
    expect(line).toMatch(/"time":\d{13},/);
    expect(mayHoldCredential(line)).toBe(false);
    expect(scrubCredentials(line)).toBe(line);
  });

  it("walks a line whose only marker hides in a literal, digits after a time key included", () => {
    for (const memo of [
      `card ${cardNumber}`,
      `"time":${cardNumber}`,
      `paid:${cardNumber}`,
      `key ${issuedClientSecret}`,
    ]) {
      const line = JSON.stringify({ level: 30, time: 1_795_545_642_184, memo });
      expect(mayHoldCredential(line)).toBe(true);
      expect(scrubCredentials(line)).not.toContain(memo.slice(-12));
    }
  });

  it("scrubs a card number written in groups, and the card provider's client secrets, keeping the intent id", () => {
    for (const written of ["4242 4242 4242 4242", "4242-4242-4242-4242", "3782 822463 10005", "5555 5555 5555 4444"]) {
      const line = scrubCredentials(JSON.stringify({ msg: `buyer typed ${written} in the note` }));
      expect(line).toBe(JSON.stringify({ msg: "buyer typed [redacted] in the note" }));
    }
    // Not card numbers: a phone in groups, a date, digits that fail the Luhn check.
    for (const kept of ["+213 5551 2345 6789", "2026-11-25", "4242 4242 4242 4241"]) {
      expect(scrubCredentials(JSON.stringify({ msg: kept }))).toBe(JSON.stringify({ msg: kept }));
    }
    const secret = "pi_3QxYz2AbCdEf_secret_Gh5IjKlMnOp";
    expect(scrubCredentials(JSON.stringify({ msg: `confirm ${secret}` }))).toBe(
      JSON.stringify({ msg: "confirm pi_3QxYz2AbCdEf_secret_[redacted]" }),
    );
    expect(scrubCredentials(JSON.stringify({ m: "seti_1Ab_secret_Cd2" }))).toBe(
      JSON.stringify({ m: "seti_1Ab_secret_[redacted]" }),
    );
  });

  it("keeps a provider operation's id readable (operators ask the wallet about it), not a 43-character secret", () => {
    const { log, raw } = capturedLogger();
    const id = operationId("idem-key-1");
    expect(id).toHaveLength(issuedClientSecret.length);
    log.warn(
      { operationId: id, kind: "wallet.capture", err: `timed out; retry with ${issuedClientSecret}` },
      "provider call failed",
    );
    const line = JSON.parse(raw.join(""));
    expect(line.operationId).toBe(id);
    expect(line.err).toBe("timed out; retry with [redacted]");
    // Only the operation id's exact shape is spared: the same length in other letters is still a secret.
    expect(scrubCredentials(JSON.stringify({ note: `op_${"Z".repeat(40)}` }))).toContain("[redacted]");
  });

  it("leaves the payment id of a scrubbed client secret readable", () => {
    expect(scrubCredentials(JSON.stringify({ m: clientSecret }))).toBe(
      JSON.stringify({ m: `pa_${paymentId}_secret_[redacted]` }),
    );
  });
});

describe("request-scoped log lines", () => {
  it("puts the request id on every line written while serving the request, children and awaits included", async () => {
    const { log, lines } = capturedLogger();
    await runWithLogContext({ requestId: "req-42" }, async () => {
      log.info("first");
      await new Promise((resolve) => setTimeout(resolve, 5));
      log.child({ job: "x" }).warn("from a child logger");
      noteRequestPrincipal({ mode: "client", service: { code: "shop-a" } });
      log.info("after auth");
    });
    log.info("outside any request");
    expect(lines.slice(0, 3).map((line) => line.requestId)).toEqual(["req-42", "req-42", "req-42"]);
    expect(lines[2]).toMatchObject({ authMode: "client", service: "shop-a" });
    expect(lines[3]!.requestId).toBeUndefined();
  });

  it("shares one logger and request context between module copies (Next.js's bundle, the API lane's)", async () => {
    vi.resetModules();
    const copy = await import("@/lib/log");
    expect(copy.logger).toBe(logger);
    const { log, lines } = capturedLogger();
    const serve = (requestId: string, service: string, pauseMs: number) =>
      copy.runWithLogContext({ requestId }, async () => {
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
        noteRequestPrincipal({ mode: "client", service: { code: service } });
        log.info({ step: requestId }, "served");
      });
    await Promise.all([serve("req-a", "shop-a", 10), serve("req-b", "shop-b", 1)]);
    log.info("outside any request");
    expect(lines.map((line) => [line.step, line.requestId, line.service])).toEqual([
      ["req-b", "req-b", "shop-b"],
      ["req-a", "req-a", "shop-a"],
      [undefined, undefined, undefined],
    ]);
  });

  it("writes one access line per request: method, path without query, status, duration, auth, service", async () => {
    const calls: { fields: Record<string, unknown>; context: unknown }[] = [];
    vi.spyOn(logger, "info").mockImplementation(((fields: Record<string, unknown>) => {
      calls.push({ fields, context: { ...currentLogContext() } });
    }) as never);
    const request = new Request("http://gateway.test/api/v1/customers?phone=%2B213555&token=abc", {
      method: "POST",
      headers: { authorization: "Bearer secret-bearer", "x-request-id": "req-7" },
    });
    const response = await withRequestScope(request, async () => {
      noteRequestPrincipal({ mode: "client", service: { code: "shop-b" } });
      return new Response(null, { status: 201 });
    });
    expect(response.status).toBe(201);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.fields).toMatchObject({ method: "POST", path: "/api/v1/customers", status: 201 });
    expect(typeof calls[0]!.fields.durationMs).toBe("number");
    expect(calls[0]!.context).toEqual({ requestId: "req-7", authMode: "client", service: "shop-b" });
    expect(JSON.stringify(calls)).not.toContain("secret-bearer");
    expect(JSON.stringify(calls)).not.toContain("token=abc");
  });
});
