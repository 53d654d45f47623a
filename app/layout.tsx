import type { ReactNode } from "react";
import "./globals.css";

// The document (<html lang dir>) belongs to app/[locale]/layout.tsx and app/demo/layout.tsx;
// this root only exists so app/not-found.tsx has a layout, and carries the stylesheet.
export default function RootLayout({ children }: { children: ReactNode }) {
  return children;
}
