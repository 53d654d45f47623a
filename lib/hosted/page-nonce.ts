/**
 * The CSP nonce of the hosted page being rendered, for its island scripts (components/island.tsx).
 * The hosted lane (lib/hosted/hosted-lane.ts) renders each page in one synchronous
 * react-dom/server call inside `renderWithNonce`: no two renders interleave, so a module
 * variable is enough.
 */
let renderingNonce: string | undefined;

export function renderWithNonce<T>(nonce: string, render: () => T): T {
  const outer = renderingNonce;
  renderingNonce = nonce;
  try {
    return render();
  } finally {
    renderingNonce = outer;
  }
}

export function renderingPageNonce(): string | undefined {
  return renderingNonce;
}
