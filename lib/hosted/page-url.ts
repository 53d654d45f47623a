/** Request header the proxy sets to the page's own path and query, for pages that lack params. */
export const PAGE_URL_HEADER = "x-page-url";

/** Splits `/fr/pay/otp/1?token=x` into the locale-free path and the query, for the language switcher. */
export function unlocalizedPageUrl(
  pageUrl: string | null,
  locales: readonly string[],
): { path: string; search: string } {
  if (!pageUrl || !pageUrl.startsWith("/")) return { path: "", search: "" };
  const url = new URL(pageUrl, "http://page.invalid");
  const [, first, ...rest] = url.pathname.split("/");
  const path = first && locales.includes(first) ? (rest.length ? `/${rest.join("/")}` : "") : url.pathname;
  return { path: path === "/" ? "" : path, search: url.search.slice(1) };
}
