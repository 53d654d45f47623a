import { describe, expect, it } from "vitest";
import { createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
// @ts-expect-error plain JavaScript module of npm start's entry, without type declarations
import { createScriptDeferrer, deferPageScripts, rewritePageResponse } from "../../server/defer-page-scripts.mjs";

const NONCE = "abc123==";
const PAGE =
  `<!DOCTYPE html><html lang="ar" dir="rtl"><head><meta charSet="utf-8"/>` +
  `<link rel="preload" as="script" fetchPriority="low" nonce="${NONCE}" href="/_next/static/chunks/entry.js"/>` +
  `<script src="/_next/static/chunks/framework.js" async="" nonce="${NONCE}"></script>` +
  `<script src="/_next/static/chunks/page.js?dpl=a&amp;b=1" async="" nonce="${NONCE}"></script>` +
  `<script src="/_next/static/chunks/polyfills.js" noModule="" nonce="${NONCE}"></script>` +
  `<title>الدفع</title></head><body><h1>ادفع الآن</h1>` +
  `<script nonce="${NONCE}" id="_R_">self.x=1</script>` +
  `<script src="/_next/static/chunks/entry.js" nonce="${NONCE}" async=""></script>` +
  `<script src="/api/card-provider-sandbox/js/v3" async=""></script>` +
  `<script nonce="${NONCE}">(self.__next_f=self.__next_f||[]).push([0])</script></body></html>`;

/** A page that ships no Next.js runtime: the marker (hoisted into the head by React) and one island. */
const ISLAND_PAGE =
  `<!DOCTYPE html><html lang="fr"><head><meta charSet="utf-8"/>` +
  `<link rel="preload" as="script" fetchPriority="low" nonce="${NONCE}" href="/_next/static/chunks/entry.js"/>` +
  `<link rel="preload" href="/pay/qr/p1/image.png" as="image" fetchPriority="high"/>` +
  `<script src="/_next/static/chunks/framework.js" async="" nonce="${NONCE}"></script>` +
  `<script src="/_next/static/chunks/polyfills.js" noModule="" nonce="${NONCE}"></script>` +
  `<meta name="client-runtime" content="none"/><title>Payer</title></head><body><h1>Scannez</h1>` +
  `<script type="application/json" id="island-config-qr-status">{"statusPath":"/api/x?a=1\\u003c"}</script>` +
  `<script type="module" src="/islands/qr-status-ABC123.js" nonce="${NONCE}" data-island="qr-status"></script>` +
  `<script nonce="${NONCE}">$RC=function(b,c){};$RC("B:0","S:0")</script>` +
  `<script src="/_next/static/chunks/entry.js" nonce="${NONCE}" async=""></script>` +
  `<script nonce="${NONCE}">(self.__next_f=self.__next_f||[]).push([0])</script>` +
  `<script nonce="${NONCE}">self.__next_f.push([1,"0:[\\"$\\",\\"meta\\"]\\n"])</script></body></html>`;

interface Deferrer {
  push(chunk: Uint8Array): string;
  flush(): string;
}

function rewrite(html: string, chunkSize: number): string {
  const deferrer = createScriptDeferrer() as Deferrer;
  const bytes = Buffer.from(html);
  let out = "";
  for (let index = 0; index < bytes.length; index += chunkSize) out += deferrer.push(bytes.subarray(index, index + chunkSize));
  return out + deferrer.flush();
}

describe("server/defer-page-scripts.mjs", () => {
  it("hands Next.js's async chunks to the loader, with their nonce, and leaves everything else as it was", () => {
    const out = rewrite(PAGE, PAGE.length);
    expect(out).not.toMatch(/<script src="\/_next\/static\/chunks\/(framework|page|entry)\.js[^>]*async/);
    expect(out.match(/self\.__gwScript\("[^"]+"\)/g)).toEqual([
      'self.__gwScript("/_next/static/chunks/framework.js")',
      'self.__gwScript("/_next/static/chunks/page.js?dpl=a&b=1")',
      'self.__gwScript("/_next/static/chunks/entry.js")',
    ]);
    // The loader once, in the first rewritten tag; every rewritten tag keeps the CSP nonce.
    expect(out.split("PerformanceObserver").length - 1).toBe(1);
    expect(out.match(/<script nonce="abc123==">(?:(?!<\/script>).)*__gwScript\(/g)).toHaveLength(3);
    // Untouched: the preload, the nomodule polyfills, inline scripts, other origins' or the API's scripts, the text.
    for (const kept of [
      `<link rel="preload" as="script" fetchPriority="low" nonce="${NONCE}" href="/_next/static/chunks/entry.js"/>`,
      `<script src="/_next/static/chunks/polyfills.js" noModule="" nonce="${NONCE}"></script>`,
      `<script nonce="${NONCE}" id="_R_">self.x=1</script>`,
      `<script src="/api/card-provider-sandbox/js/v3" async=""></script>`,
      "<title>الدفع</title>",
      "<h1>ادفع الآن</h1>",
    ]) {
      expect(out).toContain(kept);
    }
  });

  it("gives the same page whatever the chunk boundaries (tags and UTF-8 characters split)", () => {
    const whole = rewrite(PAGE, PAGE.length);
    for (const size of [1, 2, 3, 7, 64, 200]) expect(rewrite(PAGE, size)).toBe(whole);
  });

  it("strips Next's runtime from a page marked as shipping none, and keeps its islands and React's own scripts", () => {
    const out = rewrite(ISLAND_PAGE, ISLAND_PAGE.length);
    expect(out).not.toContain("/_next/static/");
    expect(out).not.toContain("__next_f");
    expect(out).not.toContain("__gwScript");
    for (const kept of [
      `<meta name="client-runtime" content="none"/>`,
      `<link rel="preload" href="/pay/qr/p1/image.png" as="image" fetchPriority="high"/>`,
      `<script type="application/json" id="island-config-qr-status">{"statusPath":"/api/x?a=1\\u003c"}</script>`,
      `<script type="module" src="/islands/qr-status-ABC123.js" nonce="${NONCE}" data-island="qr-status"></script>`,
      `<script nonce="${NONCE}">$RC=function(b,c){};$RC("B:0","S:0")</script>`,
      "<title>Payer</title>",
      "<h1>Scannez</h1>",
    ]) {
      expect(out).toContain(kept);
    }
    expect(out.endsWith("</body></html>")).toBe(true);
  });

  it("strips the same way whatever the chunk boundaries", () => {
    const whole = rewrite(ISLAND_PAGE, ISLAND_PAGE.length);
    for (const size of [1, 2, 3, 7, 64, 200]) expect(rewrite(ISLAND_PAGE, size)).toBe(whole);
  });

  it("holds a page back only until its head is complete, so the body still streams", () => {
    const deferrer = createScriptDeferrer() as Deferrer;
    const headEnd = PAGE.indexOf("</head>");
    expect(deferrer.push(Buffer.from(PAGE.slice(0, headEnd)))).toBe("");
    const upToBody = deferrer.push(Buffer.from(PAGE.slice(headEnd, PAGE.indexOf("<script", headEnd))));
    expect(upToBody).toContain("<h1>ادفع الآن</h1>");
    expect(upToBody).toContain('self.__gwScript("/_next/static/chunks/framework.js")');
  });

  it("rewrites HTML responses only, and drops a Content-Length the rewrite would falsify", async () => {
    const server = createServer((request, response) => {
      deferPageScripts(response);
      if (request.url === "/json") {
        response.setHeader("content-type", "application/json");
        response.setHeader("content-length", "2");
        response.end("{}");
        return;
      }
      response.setHeader("content-type", "text/html; charset=utf-8");
      response.setHeader("content-length", String(Buffer.byteLength(PAGE)));
      const half = Math.floor(PAGE.length / 2);
      response.write(PAGE.slice(0, half));
      response.end(PAGE.slice(half));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const get = (path: string) =>
      new Promise<{ headers: Record<string, unknown>; body: string }>((resolve, reject) => {
        httpRequest({ host: "127.0.0.1", port, path }, (response) => {
          let body = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (body += chunk));
          response.on("end", () => resolve({ headers: response.headers, body }));
        })
          .on("error", reject)
          .end();
      });
    try {
      const page = await get("/");
      expect(page.headers["content-length"]).toBeUndefined();
      expect(page.body).toBe(rewrite(PAGE, PAGE.length));
      const json = await get("/json");
      expect(json.headers["content-length"]).toBe("2");
      expect(json.body).toBe("{}");
    } finally {
      server.close();
    }
  });

  it("is the servers' hook (npm start and npm run dev): pages are rewritten, the API is not even patched", async () => {
    const server = createServer((request, response) => {
      const { write } = response;
      rewritePageResponse(request, response);
      response.setHeader("x-patched", String(response.write !== write));
      response.setHeader("content-type", "text/html; charset=utf-8");
      response.end(ISLAND_PAGE);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    const get = (path: string) =>
      new Promise<{ patched: unknown; body: string }>((resolve, reject) => {
        httpRequest({ host: "127.0.0.1", port, path }, (response) => {
          let body = "";
          response.setEncoding("utf8");
          response.on("data", (chunk: string) => (body += chunk));
          response.on("end", () => resolve({ patched: response.headers["x-patched"], body }));
        })
          .on("error", reject)
          .end();
      });
    try {
      const page = await get("/fr/pay/qr/p1");
      expect(page.patched).toBe("true");
      expect(page.body).toBe(rewrite(ISLAND_PAGE, ISLAND_PAGE.length));
      expect(page.body).not.toContain("/_next/static/");
      const api = await get("/api/v1/anything");
      expect(api.patched).toBe("false");
      expect(api.body).toBe(ISLAND_PAGE);
    } finally {
      server.close();
    }
  });
});
