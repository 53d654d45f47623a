export interface HostedPageQuery {
  token?: string;
  returnUrl?: string;
  /** The query string as received, for links that must keep it (language switcher). */
  search: string;
}

/** A hosted page's query: the first value of each parameter, nothing else trusted or interpreted. */
export function hostedPageQuery(searchParams: Record<string, string | string[] | undefined>): HostedPageQuery {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) || undefined;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(searchParams)) {
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) search.append(name, item);
  }
  return { token: first(searchParams.token), returnUrl: first(searchParams.returnUrl), search: search.toString() };
}
