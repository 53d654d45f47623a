import { readFileSync } from "node:fs";
import path from "node:path";
import committed from "../../openapi.json";
import { renderMarkdownPage, renderReferencePage } from "./reference-page";

const HTML_HEADERS = { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" };
let guide: string | undefined;

/** GET /docs: the reference; the proxy's nonce (x-nonce) admits its one stylesheet under the CSP. */
export function referencePageResponse(request: Request): Response {
  return new Response(renderReferencePage(committed, { nonce: request.headers.get("x-nonce") ?? undefined }), {
    headers: HTML_HEADERS,
  });
}

/** GET /docs/first-payment: docs/first-payment.md, the guide a test runs verbatim. */
export function firstPaymentPageResponse(request: Request): Response {
  guide ??= readFileSync(path.join(process.cwd(), "docs/first-payment.md"), "utf8");
  return new Response(
    renderMarkdownPage("Take your first payment", guide, { nonce: request.headers.get("x-nonce") ?? undefined }),
    {
      headers: HTML_HEADERS,
    },
  );
}
