import type { ReactNode } from "react";

// Per-request render, like every page: the CSP nonce is fresh on each response.
export const dynamic = "force-dynamic";

export const metadata = { title: "Demo Shop", robots: { index: false, follow: false } };

/** The sandbox demo merchant's own pages: not the gateway's, so not localized. */
export default function DemoLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" dir="ltr">
      <body>{children}</body>
    </html>
  );
}
