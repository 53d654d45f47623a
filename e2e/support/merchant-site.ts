import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * The merchant's own website, where the return page sends the buyer: a real HTTP server
 * on another origin, so the redirect leaves the gateway exactly as it would in production.
 */
export async function startMerchantSite(): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://merchant.invalid");
    const paymentId = url.searchParams.get("paymentId") ?? "";
    const statusCode = url.searchParams.get("statusCode") ?? "";
    response.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" });
    response.end(
      `<!doctype html><html lang="en"><head><title>Merchant</title></head><body>` +
        `<h1>Back at the merchant</h1><p id="payment">${escapeHtml(paymentId)}</p>` +
        `<p id="status">${escapeHtml(statusCode)}</p>` +
        `<p id="referrer">${escapeHtml(request.headers.referer ?? "")}</p></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
