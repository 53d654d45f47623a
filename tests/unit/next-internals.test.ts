import { createRequire } from "node:module";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NEXT_VARY } from "@/lib/http/api-lane";

/**
 * What `npm start` still takes from Next.js's private modules (ARCHITECTURE.md, "Per-request
 * tricks"): the compression middleware it vendors (server/serve.mjs applies it to every answer,
 * the API lane to its own), the helper that frees its stream on a client disconnect, and the
 * Vary every App Router answer carries, which the lane copies so that no answer changes. An
 * upgrade of Next.js that moves or changes one of them fails here, by name.
 */
const require = createRequire(import.meta.url);

describe("the Next.js internals npm start relies on", () => {
  it("next/dist/compiled/compression: a middleware factory, 1 KB threshold, Vary on what it could compress", async () => {
    const compress = require("next/dist/compiled/compression")();
    const server = http.createServer((request, response) => {
      compress(request, response, () => {});
      const size = Number(new URL(request.url!, "http://x").searchParams.get("size"));
      const type = new URL(request.url!, "http://x").searchParams.get("type");
      if (type) response.setHeader("content-type", type);
      const body = Buffer.alloc(size, "a");
      response.setHeader("content-length", body.length);
      response.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const get = (query: string) =>
        new Promise<http.IncomingMessage>((resolve) =>
          http.get(`${base}/?${query}`, { headers: { "accept-encoding": "gzip" } }, (response) => {
            response.resume();
            response.on("end", () => resolve(response));
          }),
        );
      const large = await get("size=1024&type=application/json");
      expect(large.headers["content-encoding"]).toBe("gzip");
      expect(large.rawHeaders).toContain("Vary");
      const small = await get("size=1023&type=application/json;%20charset=utf-8");
      expect(small.headers["content-encoding"]).toBeUndefined();
      expect(small.rawHeaders.slice(small.rawHeaders.indexOf("Vary"), small.rawHeaders.indexOf("Vary") + 2)).toEqual(["Vary", "Accept-Encoding"]);
      const image = await get("size=2048&type=image/png");
      expect(image.headers["content-encoding"]).toBeUndefined();
      expect(image.headers.vary).toBeUndefined();
    } finally {
      server.close();
    }
  });

  it("next/dist/server/lib/release-compression-stream: releaseCompressionStream(response)", () => {
    const { releaseCompressionStream } = require("next/dist/server/lib/release-compression-stream");
    expect(typeof releaseCompressionStream).toBe("function");
  });

  it("the Vary Next.js sets on an App Router answer is the one the lane copies", () => {
    const headers = require("next/dist/client/components/app-router-headers");
    const nextVary = [headers.RSC_HEADER, headers.NEXT_ROUTER_STATE_TREE_HEADER, headers.NEXT_ROUTER_PREFETCH_HEADER, headers.NEXT_ROUTER_SEGMENT_PREFETCH_HEADER].join(", ");
    expect(NEXT_VARY).toBe(nextVary);
    const source = readFileSync(require.resolve("next/dist/server/base-server.js"), "utf8");
    expect(source).toContain(
      "const baseVaryHeader = `${_approuterheaders.RSC_HEADER}, ${_approuterheaders.NEXT_ROUTER_STATE_TREE_HEADER}, ${_approuterheaders.NEXT_ROUTER_PREFETCH_HEADER}, ${_approuterheaders.NEXT_ROUTER_SEGMENT_PREFETCH_HEADER}`",
    );
  });
});
