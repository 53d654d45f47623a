// Apart from components/island.tsx (which reads the request's nonce through next/headers), so the
// console lane's bundle (server/build-lanes.mjs), rendered outside Next.js, can render it.

/**
 * The mark of a page that ships no Next.js client runtime: server/defer-page-scripts.mjs
 * (npm start) strips Next's scripts and its RSC payload from a page whose head carries it.
 * React hoists a <meta> into the <head>, which the rewriter reads before any of those scripts.
 */
export const NO_CLIENT_RUNTIME_META = { name: "client-runtime", content: "none" } as const;

/** For a page with no behaviour of its own in the browser: all of it is HTML. */
export function NoClientRuntime() {
  return <meta name={NO_CLIENT_RUNTIME_META.name} content={NO_CLIENT_RUNTIME_META.content} />;
}
