import { describe, expect, it } from "vitest";
import { createRequire } from "node:module";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
// @ts-expect-error plain JavaScript module of npm start's entry, without type declarations
import { MAX_HELD, sendInOneWrite } from "../../server/send-in-one-write.mjs";

const require = createRequire(import.meta.url);

/** Answers as Next.js sends a route handler's Response: flushHeaders, each chunk, end. */
async function serve(
  chunks: string[],
  requestHeaders: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingMessage["headers"]; body: Buffer; writtenAtFlush: number }> {
  let writtenAtFlush = -1;
  const compress = require("compression")();
  const server = createServer((request, response: ServerResponse) => {
    // As server/door.mjs installs them for an API request Next.js answers.
    compress(request, response, () => {});
    sendInOneWrite(response);
    response.statusCode = 201;
    response.setHeader("content-type", "application/json; charset=utf-8");
    response.flushHeaders();
    writtenAtFlush = response.socket?.bytesWritten ?? -1;
    for (const chunk of chunks) response.write(new TextEncoder().encode(chunk));
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise((resolve, reject) => {
      const req = httpRequest({ port, host: "127.0.0.1", path: "/api/v1/x", headers: requestHeaders }, (response) => {
        const parts: Buffer[] = [];
        response.on("data", (part: Buffer) => parts.push(part));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts), writtenAtFlush }));
      });
      req.on("error", reject);
      req.end();
    });
  } finally {
    server.close();
  }
}

describe("server/send-in-one-write.mjs", () => {
  it("holds the head until the body is there, and answers the same status, headers and body", async () => {
    const answer = await serve(['{"code":201,', '"status":"success"}']);
    expect(answer.writtenAtFlush).toBe(0);
    expect(answer.status).toBe(201);
    expect(answer.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(answer.headers["transfer-encoding"]).toBeUndefined();
    expect(answer.headers["content-length"]).toBe("31");
    expect(answer.body.toString()).toBe('{"code":201,"status":"success"}');
  });

  it("does not gzip an answer under a kilobyte, even for a client that accepts gzip", async () => {
    const answer = await serve(['{"code":200,', '"data":{"statusCode":1}}'], { "accept-encoding": "gzip, deflate, br" });
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.headers.vary).toContain("Accept-Encoding");
    expect(answer.body.toString()).toBe('{"code":200,"data":{"statusCode":1}}');
  });

  it("gzips an answer from a kilobyte on for a client that accepts gzip, and only for it", async () => {
    const items = JSON.stringify(Array.from({ length: 40 }, (_, index) => ({ paymentId: `payment-${index}`, statusCode: 1 })));
    const body = `{"code":200,"data":${items}}`;
    expect(body.length).toBeGreaterThan(1024);
    const zipped = await serve([body.slice(0, 500), body.slice(500)], { "accept-encoding": "gzip" });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers["content-length"]).toBeUndefined();
    expect(gunzipSync(zipped.body).toString()).toBe(body);
    const plain = await serve([body]);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers["content-length"]).toBe(String(body.length));
    expect(plain.body.toString()).toBe(body);
  });

  it("streams a body larger than it holds, compressed when the client accepts it", async () => {
    const large = "x".repeat(MAX_HELD);
    const answer = await serve([large, large, "end"]);
    expect(answer.body.length).toBe(2 * MAX_HELD + 3);
    expect(answer.headers["transfer-encoding"]).toBe("chunked");
    expect(answer.body.subarray(-3).toString()).toBe("end");
    const zipped = await serve([large, large, "end"], { "accept-encoding": "gzip" });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(zipped.body).toString()).toBe(`${large}${large}end`);
  });
});
