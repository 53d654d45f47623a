import { headers } from "next/headers";
import { islandScriptPath } from "@/lib/hosted/island-manifest";

/**
 * The mark of a page that ships no Next.js client runtime: scripts/defer-page-scripts.mjs
 * (npm start) strips Next's scripts and its RSC payload from a page whose head carries it.
 * React hoists a <meta> into the <head>, which the rewriter reads before any of those scripts.
 */
export const NO_CLIENT_RUNTIME_META = { name: "client-runtime", content: "none" } as const;

/** For a page with no behaviour of its own in the browser: all of it is HTML. */
export function NoClientRuntime() {
  return <meta name={NO_CLIENT_RUNTIME_META.name} content={NO_CLIENT_RUNTIME_META.content} />;
}

/**
 * A vanilla island (components/islands/<name>.ts, built by scripts/build-islands.mjs): its
 * config as JSON the island reads, and its module script with the request's CSP nonce. The
 * page then ships no Next.js runtime.
 */
export async function Island({ name, config }: { name: string; config?: unknown }) {
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <>
      <NoClientRuntime />
      {config === undefined ? null : (
        <script
          type="application/json"
          id={`island-config-${name}`}
          // A data block runs nothing, but every script element of a hosted page carries the
          // response's nonce: one rule a reviewer (and e2e/security.spec.ts) can check at a glance.
          nonce={nonce}
          // Escaped `<`: no value can close the script element early.
          dangerouslySetInnerHTML={{ __html: JSON.stringify(config).replaceAll("<", "\\u003c") }}
        />
      )}
      <script type="module" src={islandScriptPath(name)} nonce={nonce} data-island={name} />
    </>
  );
}
