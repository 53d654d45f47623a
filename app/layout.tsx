import type { ReactNode } from "react";
import type { Metadata } from "next";
import "./globals.css";
import { PAGE_ICON_URL } from "@/lib/hosted/page-icon";

export const metadata: Metadata = {
  // The icon travels inside the page (a data: URL, which the CSP's img-src admits): as a file it
  // was one more request before the largest paint, which on a slow phone network costs a round
  // trip (Lighthouse counts it in the LCP).
  icons: { icon: { url: PAGE_ICON_URL, type: "image/svg+xml" } },
};

// The document (<html lang dir>) belongs to app/[locale]/layout.tsx and app/demo/layout.tsx;
// this root only exists so app/not-found.tsx has a layout, and carries the stylesheet and icon.
export default function RootLayout({ children }: { children: ReactNode }) {
  return children;
}
