export interface HostedPageQuery {
  token?: string;
  returnUrl?: string;
  /** What a hosted form's 303 says happened (a closed list per page; anything else is ignored). */
  notice?: string;
  /** The return page: the buyer asked to stay (a plain GET form, so it works before script runs). */
  stay: boolean;
  /** The query string as received, for links that must keep it (language switcher). */
  search: string;
}

/** A hosted page's query: the first value of each parameter, nothing else trusted or interpreted. */
export function hostedPageQuery(searchParams: Record<string, string | string[] | undefined>): HostedPageQuery {
  const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) || undefined;
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(searchParams)) {
    // A form's notice belongs to the moment it was posted, not to the page in another language.
    if (name === "notice") continue;
    for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) search.append(name, item);
  }
  return {
    token: first(searchParams.token),
    returnUrl: first(searchParams.returnUrl),
    notice: first(searchParams.notice),
    stay: first(searchParams.stay) === "1",
    search: search.toString(),
  };
}
