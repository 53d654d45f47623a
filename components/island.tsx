import { headers } from "next/headers";
import { islandScriptPath } from "@/lib/hosted/island-manifest";
import { NoClientRuntime } from "./no-client-runtime";

// Pages import the mark from here, beside the islands that set it too.
export { NO_CLIENT_RUNTIME_META, NoClientRuntime } from "./no-client-runtime";

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
