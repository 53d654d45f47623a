/**
 * A page's query as the App Router hands a page its searchParams (a name given more than once is
 * an array), for the pages a lane renders past it: the hosted lane's (lib/hosted/hosted-lane.ts)
 * and the console lane's (lib/console/web/console-lane.ts), which both read the query here.
 */
export function pageSearchParams(search: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(search)) {
    const earlier = Object.hasOwn(query, name) ? query[name] : undefined;
    query[name] = earlier === undefined ? value : Array.isArray(earlier) ? [...earlier, value] : [earlier, value];
  }
  return query;
}
