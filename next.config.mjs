import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

/** lib/hosted/page-url.ts's PAGE_LOCALE_HEADER (tests/unit/hosted-security-headers.test.ts holds the two equal). */
const PAGE_LOCALE_HEADER = "x-gateway-page-locale";

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native/wasm database drivers load their own files at run time: keep them out of the bundle
  // (pdfkit too: it reads its font metrics from its own folder).
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "pino", "pdfkit"],
  poweredByHeader: false,
  // The gateway's door (server/door.mjs, npm start and npm run dev) compresses every answer, after
  // moving the page's scripts past the first paint (server/defer-page-scripts.mjs), which needs
  // the HTML as Next.js writes it.
  compress: false,
  // `npm test` type-checks with tsc; a first `npm start` should not pay for it twice.
  typescript: { ignoreBuildErrors: true },
  typedRoutes: false,
  // npm run dev: Next's own request lines print whole URLs, and a hosted page's carries its
  // token. lib/hosted/log-page-request.ts already logs every request with credentials redacted.
  logging: { incomingRequests: false },
  // The stylesheet is small (about 6 KB gzip): inlined in the head, the first paint waits for
  // no second request, which on a slow phone network is most of the largest paint's delay.
  // A page with the Next.js runtime repeats it in its RSC payload (the card page: 113 KB of HTML,
  // 19 KB gzip); a runtime-free page (components/island.tsx) has it once (the OTP page: 35 KB,
  // 9 KB gzip), since server/defer-page-scripts.mjs strips that payload.
  experimental: { inlineCss: true },
  // The hosted pages' islands (scripts/build-islands.mjs) are named by their content's hash: a
  // name never changes content, so a browser may keep each one for good.
  async headers() {
    return [{ source: "/islands/:file*", headers: [{ key: "Cache-Control", value: "public, max-age=31536000, immutable" }] }];
  },
  // A buyer's short address (a checkoutUrl, a payment link's url) served in the buyer's language
  // at once, not redirected to it (issue 42): proxy.ts picks the language and names it in this
  // request header, and this rewrite, a path inside the app, serves the localized page. Not a
  // rewrite from the proxy: Next.js takes its absolute URL for another server's when the host it
  // was given differs from the request's (HOST=127.0.0.1 against localhost) and proxies the
  // request there, which hung under npm start (card-production-mode, commit d077c7c).
  async rewrites() {
    const named = [{ type: "header", key: PAGE_LOCALE_HEADER, value: "(?<locale>en|fr|ar)" }];
    return {
      beforeFiles: [
        { source: "/pay/checkout/:paymentId", has: named, destination: "/:locale/pay/checkout/:paymentId" },
        { source: "/l/:id", has: named, destination: "/:locale/l/:id" },
      ],
    };
  },
};

export default withNextIntl(nextConfig);
