// STUB until issue-islands is merged (the islands contract's server side, minimal); replaced by
// the islands branch's own file at the merge.
import { headers } from "next/headers";

export async function Island({ name, config }: { name: string; config: unknown }) {
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    <>
      <script type="application/json" id={`island-config-${name}`} nonce={nonce} dangerouslySetInnerHTML={{ __html: JSON.stringify(config).replaceAll("<", "\\u003c") }} />
      <script type="module" src={`/islands/${name}.js`} nonce={nonce} data-island={name} />
    </>
  );
}
