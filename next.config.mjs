import createNextIntlPlugin from "next-intl/plugin";

const withNextIntl = createNextIntlPlugin("./lib/i18n/request.ts");

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native/wasm database drivers load their own files at run time: keep them out of the bundle.
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "pino"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default withNextIntl(nextConfig);
