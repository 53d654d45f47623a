"use client";

import { useTranslations } from "next-intl";

/**
 * Any hosted page that cannot render (contract section 12: above all, the database cannot be
 * reached) says the service is briefly unavailable in the page's language, and offers a retry;
 * it never shows a stack or a digest.
 */
export default function HostedPageError({ reset }: { error: Error; reset: () => void }) {
  const t = useTranslations("unavailable");
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center gap-4 px-4 text-slate-900">
      <title>{t("title")}</title>
      <h1 className="text-2xl font-bold tracking-tight">{t("title")}</h1>
      <p role="status" className="rounded-lg bg-sky-50 px-4 py-3 text-sm text-sky-950 ring-1 ring-sky-200">
        {t("body")}
      </p>
      <button
        type="button"
        onClick={() => reset()}
        className="self-start rounded-lg bg-teal-700 px-4 py-2 text-sm font-semibold text-white hover:bg-teal-800"
      >
        {t("retry")}
      </button>
    </main>
  );
}
