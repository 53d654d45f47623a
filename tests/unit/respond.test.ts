import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ApiError } from "@/lib/errors/api-error";
import { successResponse, toErrorResponse } from "@/lib/http/respond";
import { logger } from "@/lib/log";

afterEach(() => vi.restoreAllMocks());

async function read(response: Response) {
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
}

describe("toErrorResponse", () => {
  it("renders an ApiError as the contract's envelope with its status", async () => {
    const { status, headers, body } = await read(toErrorResponse(new ApiError("customer_exists", "Taken."), "req-1"));
    expect(status).toBe(409);
    expect(headers.get("x-request-id")).toBe("req-1");
    expect(headers.get("content-type")).toMatch(/^application\/json/);
    expect(body).toEqual({
      code: 409,
      status: "error",
      message: "Taken.",
      error: { name: "customer_exists", requestId: "req-1" },
    });
  });

  it("carries details and the error's own headers", async () => {
    const error = new ApiError("rate_limited", "Slow down.", [{ path: "x", message: "y" }], { "retry-after": "7" });
    const { status, headers, body } = await read(toErrorResponse(error, "req-2", { ratelimit: '"secret";r=0;t=7' }));
    expect(status).toBe(429);
    expect(headers.get("retry-after")).toBe("7");
    expect(headers.get("ratelimit")).toBe('"secret";r=0;t=7');
    expect(body.error.details).toEqual([{ path: "x", message: "y" }]);
  });

  it("renders a ZodError as validation_error listing each field", async () => {
    const parsed = z.object({ name: z.string(), amount: z.number() }).safeParse({ amount: "1" });
    const { status, body } = await read(toErrorResponse(parsed.error, "req-3"));
    expect(status).toBe(400);
    expect(body.error.name).toBe("validation_error");
    expect(body.error.details.map((detail: { path: string }) => detail.path).sort()).toEqual(["amount", "name"]);
  });

  it("turns anything else into a 500 that tells nothing but the request id", async () => {
    vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const thrownValues: unknown[] = [
      new Error('duplicate key value violates unique constraint "customers_pkey" password=hunter2'),
      new TypeError("Cannot read properties of undefined (reading 'secret_field')"),
      Object.assign(new Error("Failed query: select * from api_credentials"), { query: "select", params: ["hunter2"] }),
      "a thrown string hunter2",
      { code: "23505", detail: "Key (phone)=(+213555000111) already exists." },
      undefined,
    ];
    for (const thrown of thrownValues) {
      const { status, text, body } = await read(toErrorResponse(thrown, "req-500"));
      expect(status).toBe(500);
      expect(body).toEqual({
        code: 500,
        status: "error",
        message: "An unexpected error occurred. Quote the request id when reporting it.",
        error: { name: "internal_error", requestId: "req-500" },
      });
      for (const leak of ["hunter2", "select", "customers_pkey", "secret_field", "+213555000111", "at ", "Error"]) {
        expect(text, String(thrown)).not.toContain(leak);
      }
    }
  });

  it("logs the unexpected error with its request id for support", () => {
    const logged = vi.spyOn(logger, "error").mockImplementation(() => undefined);
    const thrown = new Error("boom");
    toErrorResponse(thrown, "req-log");
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ requestId: "req-log", err: thrown }),
      expect.any(String),
    );
  });
});

describe("successResponse", () => {
  it("renders { code, status: success, message, data } with the request id", async () => {
    const response = successResponse({ requestId: "req-ok", status: 201, message: "Made.", data: { id: 1 } });
    const { status, headers, body } = await read(response);
    expect(status).toBe(201);
    expect(headers.get("x-request-id")).toBe("req-ok");
    expect(headers.get("cache-control")).toBe("no-store");
    expect(body).toEqual({ code: 201, status: "success", message: "Made.", data: { id: 1 } });
  });

  it("sends data: null when there is nothing to return", async () => {
    const { body } = await read(successResponse({ requestId: "r", message: "Revoked.", data: undefined }));
    expect(body).toEqual({ code: 200, status: "success", message: "Revoked.", data: null });
  });
});
