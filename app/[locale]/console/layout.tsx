import type { ReactNode } from "react";

// The console's segment: its own boundary for forbidden() (forbidden.tsx beside this file).
export default function ConsoleLayout({ children }: { children: ReactNode }) {
  return children;
}
