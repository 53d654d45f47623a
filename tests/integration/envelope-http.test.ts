import { beforeAll, describe, expect, it } from "vitest";
import { clientAuth } from "../support/api";
import { createMerchant, randomPhone } from "../support/factories";
import { useTestGateway } from "../support/test-gateway";

const gateway = useTestGateway();
const { api } = gateway;
let merchant: Awaited<ReturnType<typeof createMerchant>>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const KIB_64 = 64 * 1024;

beforeAll(async () => {
  merchant = await createMerchant();
});

function postRaw(rawBody: string, headers: Record<string, string> = { "content-type": "application/json" }) {
  return api.call("POST", "/api/v1/customers", { rawBody, headers: clientAuth(merchant, headers) });
}

/** A valid create body padded with spaces to exactly `bytes` bytes. */
function paddedBody(bytes: number): string {
  const body = JSON.stringify({ name: "Padded", phone: randomPhone() });
  return body.slice(0, -1) + " ".repeat(bytes - body.length) + "}";
}

describe("success envelope", () => {
  it("answers { code, status: success, message, data } as JSON with x-request-id", async () => {
    const body = { name: "Envelope", phone: randomPhone() };
    const response = await api.post("/api/v1/customers", body, clientAuth(merchant));
    expect(response.status).toBe(201);
    expect(Object.keys(response.body).sort()).toEqual(["code", "data", "message", "status"]);
    expect(response.body).toMatchObject({ code: 201, status: "success" });
    expect(response.body.message).toEqual(expect.any(String));
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-request-id")).toMatch(UUID);
  });
});

describe("error envelope", () => {
  it("answers { code, status: error, message, error: { name, requestId } } with the header's request id", async () => {
    const response = await api.get("/api/v1/customers/00000000-0000-4000-8000-000000000000", clientAuth(merchant));
    expect(response.status).toBe(404);
    expect(Object.keys(response.body).sort()).toEqual(["code", "error", "message", "status"]);
    expect(response.body).toMatchObject({ code: 404, status: "error", error: { name: "not_found" } });
    expect(Object.keys(response.body.error).sort()).toEqual(["name", "requestId"]);
    expect(response.body.error.requestId).toBe(response.headers.get("x-request-id"));
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  });

  it("adds details with a path and message for each failing field", async () => {
    const response = await api.post("/api/v1/customers", { name: 7, phone: "1", email: "x" }, clientAuth(merchant));
    expect(response.status).toBe(400);
    expect(response.body.error.name).toBe("validation_error");
    expect(response.body.error.details).toHaveLength(3);
    for (const detail of response.body.error.details) {
      expect(Object.keys(detail).sort()).toEqual(["message", "path"]);
      expect(detail.message).toEqual(expect.any(String));
    }
  });
});

describe("x-request-id", () => {
  it("echoes a sane incoming id of up to 128 characters in the header and the error body", async () => {
    for (const id of ["req-123", "a.b:c_d-E", "x".repeat(128)]) {
      const response = await api.get("/api/v1/customers/unknown", { ...clientAuth(merchant), "x-request-id": id });
      expect(response.headers.get("x-request-id")).toBe(id);
      expect(response.body.error.requestId).toBe(id);
    }
  });

  it("replaces an id that is too long or carries other characters with a fresh one", async () => {
    for (const id of ["x".repeat(129), "has space", "semi;colon", "<script>", "%C3%BCnicode", 'quo"te']) {
      const response = await api.get("/api/v1/customers/unknown", { ...clientAuth(merchant), "x-request-id": id });
      const answered = response.headers.get("x-request-id");
      expect(answered, id).toMatch(UUID);
      expect(response.body.error.requestId).toBe(answered);
    }
  });

  it("gives every request its own id", async () => {
    const ids = new Set<string | null>();
    for (let index = 0; index < 5; index += 1) ids.add((await api.get("/api/v1/nope")).headers.get("x-request-id"));
    expect(ids.size).toBe(5);
  });
});

describe("JSON bodies", () => {
  it("refuses a body that is not application/json with 415 unsupported_media_type", async () => {
    for (const contentType of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"]) {
      const body = JSON.stringify({ name: "A", phone: randomPhone() });
      const response = await postRaw(body, { "content-type": contentType });
      expect(response.status, contentType).toBe(415);
      expect(response.body).toMatchObject({ code: 415, status: "error", error: { name: "unsupported_media_type" } });
    }
    const missing = await postRaw(JSON.stringify({ name: "A", phone: randomPhone() }), {});
    expect(missing.status).toBe(415);
  });

  it("accepts application/json with a charset parameter", async () => {
    const response = await postRaw(JSON.stringify({ name: "Charset", phone: randomPhone() }), {
      "content-type": "application/json; charset=utf-8",
    });
    expect(response.status).toBe(201);
  });

  it("reports malformed JSON as validation_error", async () => {
    for (const raw of ["{", "{name: 'x'}", "[1,]", "nul"]) {
      const response = await postRaw(raw);
      expect(response.status, raw).toBe(400);
      expect(response.body.error).toMatchObject({ name: "validation_error", details: [{ path: "(body)" }] });
    }
  });

  it("treats an empty body as {} so the missing fields are listed", async () => {
    const response = await postRaw("");
    expect(response.status).toBe(400);
    const paths = response.body.error.details.map((detail: { path: string }) => detail.path);
    expect(paths.sort()).toEqual(["name", "phone"]);
  });

  it("refuses a body that is JSON but not an object with validation_error", async () => {
    for (const raw of ["[]", "42", '"text"', "null"]) {
      const response = await postRaw(raw);
      expect(response.status, raw).toBe(400);
      expect(response.body.error.name).toBe("validation_error");
    }
  });

  it("refuses a U+0000 inside a string with validation_error rather than a database failure", async () => {
    const response = await postRaw(JSON.stringify({ name: "A\u0000B", phone: randomPhone() }));
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ name: "validation_error", details: [{ path: "name" }] });
  });

  it("accepts a body of exactly 64 KiB", async () => {
    const response = await postRaw(paddedBody(KIB_64));
    expect(response.status).toBe(201);
  });

  it("refuses a body over 64 KiB with 413 payload_too_large, by declared length", async () => {
    const response = await postRaw(paddedBody(KIB_64 + 1));
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ code: 413, status: "error", error: { name: "payload_too_large" } });
  });

  it("refuses a streamed body over 64 KiB that declares no length with 413", async () => {
    const bytes = new TextEncoder().encode(paddedBody(KIB_64 * 4));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let offset = 0; offset < bytes.length; offset += 8192) {
          controller.enqueue(bytes.slice(offset, offset + 8192));
        }
        controller.close();
      },
    });
    const response = await fetch(`${gateway.baseUrl}/api/v1/customers`, {
      method: "POST",
      body,
      duplex: "half",
      headers: clientAuth(merchant, { "content-type": "application/json" }),
    } as RequestInit);
    expect(response.status).toBe(413);
    expect((await response.json()).error.name).toBe("payload_too_large");
  });
});

describe("unknown paths", () => {
  it("answers a JSON 404 not_found for any method on an unknown /api/v1 path", async () => {
    for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
      const response = await api.call(method, "/api/v1/no/such/thing");
      expect(response.status, method).toBe(404);
      expect(response.body).toMatchObject({ code: 404, status: "error", error: { name: "not_found" } });
      expect(response.body.error.requestId).toBe(response.headers.get("x-request-id"));
    }
  });

  // The door hands every /api/ path to the API lane, which answers these itself (no route file of app/api does).
  it("answers the same JSON 404 outside /api/v1, at /api/v1 itself and to a preflight, and HEAD bare", async () => {
    for (const path of ["/api/no-such-thing", "/api/v1", "/api/v1/payments/intents/x/y/z", "/api/health/more"]) {
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        const response = await api.call(method, path);
        expect(response.status, `${method} ${path}`).toBe(404);
        expect(response.headers.get("content-type"), `${method} ${path}`).toMatch(/^application\/json/);
        expect(response.body, `${method} ${path}`).toMatchObject({
          code: 404,
          status: "error",
          message: "No such endpoint.",
          error: { name: "not_found" },
        });
        expect(response.headers.get("access-control-allow-origin"), `${method} ${path}`).toBeNull();
      }
      const head = await fetch(`${gateway.baseUrl}${path}`, { method: "HEAD" });
      expect(head.status, `HEAD ${path}`).toBe(404);
      expect(await head.text(), `HEAD ${path}`).toBe("");
    }
  });
});
