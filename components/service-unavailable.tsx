import { translator } from "@/lib/i18n/translator";
import type { Locale } from "@/lib/i18n/routing";

/**
 * A hosted page that cannot render (contract 12: above all, the database cannot be reached) says
 * the service is briefly unavailable in the page's language, and offers a retry: the same page
 * again, a plain link, as the page ships no script. Never a stack or a digest.
 */
export function ServiceUnavailable({ locale, retryHref }: { locale: Locale; retryHref: string }) {
  const t = translator(locale, "unavailable");
  return (
    <main className="mx-auto flex min-h-dvh w-full max-w-md flex-col justify-center gap-4 px-4 text-slate-900">
      <h1 className="text-2xl font-bold tracking-tight">{t("title")}</h1>
      <p role="status" className="rounded-lg bg-sky-50 px-4 py-3 text-sm text-sky-950 ring-1 ring-sky-200">
        {t("body")}
      </p>
      <a
        href={retryHref}
        className="self-start rounded-lg bg-teal-700 px-4 py-2 text-sm font-semibold text-white hover:bg-teal-800"
      >
        {t("retry")}
      </a>
    </main>
  );
}
