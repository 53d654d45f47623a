import { describe, expect, it } from "vitest";
import { ApiError } from "@/lib/errors/api-error";
import { MAX_BODY_BYTES, readJsonBody } from "@/lib/http/read-json-body";

const JSON_TYPE = { "content-type": "application/json" };

function request(body: string | ReadableStream<Uint8Array> | undefined, headers: Record<string, string> = JSON_TYPE) {
  return new Request("http://gateway.test/api/v1/x", {
    method: "POST",
    body,
    headers,
    ...(body instanceof ReadableStream ? { duplex: "half" } : {}),
  } as RequestInit);
}

async function errorOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected an ApiError");
}

/** A stream of `total` bytes in `chunk`-sized pieces that counts how many it handed out. */
function countingStream(total: number, chunk = 4096) {
  const stats = { pulled: 0, cancelled: false };
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= total) return controller.close();
      const size = Math.min(chunk, total - sent);
      sent += size;
      stats.pulled += size;
      controller.enqueue(new Uint8Array(size).fill(0x20));
    },
    cancel() {
      stats.cancelled = true;
    },
  });
  return { stream, stats };
}

describe("readJsonBody", () => {
  it("parses a JSON object", async () => {
    expect(await readJsonBody(request('{"a":1,"b":["x"]}'))).toEqual({ a: 1, b: ["x"] });
  });

  it("accepts a charset parameter and +json media types", async () => {
    for (const type of ["application/json; charset=utf-8", "Application/JSON", "application/merge-patch+json"]) {
      expect(await readJsonBody(request("{}", { "content-type": type })), type).toEqual({});
    }
  });

  it("reads an absent or blank body as {}", async () => {
    expect(await readJsonBody(request(undefined, {}))).toEqual({});
    expect(await readJsonBody(request("", {}))).toEqual({});
    expect(await readJsonBody(request("  \n ", JSON_TYPE))).toEqual({});
  });

  it("refuses a body that is not application/json with 415 unsupported_media_type", async () => {
    const cases: Record<string, string>[] = [
      { "content-type": "text/plain" },
      { "content-type": "application/jsonp" },
      {},
    ];
    for (const headers of cases) {
      const error = await errorOf(readJsonBody(request('{"a":1}', headers)));
      expect(error.errorName).toBe("unsupported_media_type");
      expect(error.status).toBe(415);
    }
  });

  it("reports malformed JSON as validation_error", async () => {
    for (const raw of ["{", "{'a':1}", "[1,]", "undefined", '{"a":1}}']) {
      const error = await errorOf(readJsonBody(request(raw)));
      expect(error.errorName, raw).toBe("validation_error");
      expect(error.status).toBe(400);
      expect(error.details).toEqual([{ path: "(body)", message: "malformed JSON" }]);
    }
  });

  it("refuses a U+0000 in any string and names where it is", async () => {
    const error = await errorOf(readJsonBody(request(JSON.stringify({ outer: { name: "a\u0000b" } }))));
    expect(error.errorName).toBe("validation_error");
    expect(error.details?.[0]?.path).toBe("outer.name");
    expect(await readJsonBody(request(JSON.stringify({ text: "a literal \\u0000 stays" })))).toEqual({
      text: "a literal \\u0000 stays",
    });
  });

  it("accepts exactly 64 KiB", async () => {
    const body = `{"a":"${"x".repeat(MAX_BODY_BYTES - 8)}"}`;
    expect(body.length).toBe(MAX_BODY_BYTES);
    expect(await readJsonBody(request(body))).toEqual({ a: "x".repeat(MAX_BODY_BYTES - 8) });
  });

  it("refuses a declared length over 64 KiB with 413 without reading the body", async () => {
    let bodyRead = false;
    const fake = {
      headers: new Headers({ ...JSON_TYPE, "content-length": String(MAX_BODY_BYTES + 1) }),
      get body() {
        bodyRead = true;
        return null;
      },
    } as unknown as Request;
    const error = await errorOf(readJsonBody(fake));
    expect(error.errorName).toBe("payload_too_large");
    expect(error.status).toBe(413);
    expect(bodyRead).toBe(false);
  });

  it("stops reading a stream at 64 KiB when no length is declared, and answers 413", async () => {
    const { stream, stats } = countingStream(10 * MAX_BODY_BYTES);
    const error = await errorOf(readJsonBody(request(stream)));
    expect(error.errorName).toBe("payload_too_large");
    expect(stats.cancelled).toBe(true);
    expect(stats.pulled).toBeLessThan(2 * MAX_BODY_BYTES);
  });

  it("counts bytes, not characters", async () => {
    const body = `{"a":"${"é".repeat(MAX_BODY_BYTES / 2)}"}`;
    expect(body.length).toBeLessThan(MAX_BODY_BYTES);
    expect((await errorOf(readJsonBody(request(body)))).errorName).toBe("payload_too_large");
  });
});
