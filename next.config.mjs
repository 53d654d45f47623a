import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native/wasm database drivers load their own files at run time: keep them out of the bundle
  // (pdfkit too: it reads its font metrics from its own folder).
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "pino", "pdfkit"],
  poweredByHeader: false,
  // The gateway's door (server/door.mjs, npm start and npm run dev) compresses every answer, once.
  compress: false,
  // `npm test` type-checks with tsc; a first `npm start` should not pay for it twice.
  typescript: { ignoreBuildErrors: true },
  typedRoutes: false,
  // npm run dev: Next's own request lines print whole URLs, and a hosted page's carries its
  // token. lib/hosted/log-page-request.ts already logs every request with credentials redacted.
  logging: { incomingRequests: false },
  // The stylesheet is small (about 6 KB gzip): inlined in the head, the first paint waits for
  // no second request, which on a slow phone network is most of the largest paint's delay.
  // (The hosted buyer pages are the hosted lane's, lib/hosted/hosted-lane.ts, which inlines its own.)
  experimental: { inlineCss: true },
  // The hosted pages' islands (scripts/build-islands.mjs) are named by their content's hash: a
  // name never changes content, so a browser may keep each one for good.
  async headers() {
    return [
      { source: "/islands/:file*", headers: [{ key: "Cache-Control", value: "public, max-age=31536000, immutable" }] },
    ];
  },
};

export default withNextIntl(nextConfig);
