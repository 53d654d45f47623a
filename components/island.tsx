import { islandScriptPath } from "@/lib/hosted/island-manifest";
import { renderingPageNonce } from "@/lib/hosted/page-nonce";

/**
 * A vanilla island (components/islands/<name>.ts, built by scripts/build-islands.mjs): its
 * config as JSON the island reads, and its module script with the page's CSP nonce.
 */
export function Island({ name, config }: { name: string; config?: unknown }) {
  const nonce = renderingPageNonce();
  return (
    <>
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
