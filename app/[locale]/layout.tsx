import type { ReactNode } from "react";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { setRequestLocale } from "next-intl/server";
import { isLocale, textDirection } from "@/lib/i18n/locales";

// Each response carries a fresh CSP nonce, which only a per-request render can stamp on the
// page's scripts: a prerendered page would have its scripts blocked.
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  // Payment pages carry tokens: never in a search index.
  robots: { index: false, follow: false },
};

export const viewport = { width: "device-width", initialScale: 1 };

export default async function LocaleLayout({
  children,
  params,
}: {
  children: ReactNode;
  params: Promise<{ locale: string }>;
}) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  setRequestLocale(locale);
  return (
    <html lang={locale} dir={textDirection(locale)}>
      <body>
        {/* Pages translate on the server; an island (components/islands) gets the words it
            may show in its config, so no page ships a message catalogue. */}
        {children}
      </body>
    </html>
  );
}
