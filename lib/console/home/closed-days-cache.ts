/**
 * The home's figures of days that have ended, kept per process (issue 42: the home on the
 * million-payment set). A closed day's groups change only when one of its payments changes state
 * or money, and every such change writes a notification in the same transaction
 * (notify-payment-change.ts: each event into or out of the figures' states notifies); so a cached
 * day is read again when a notification of one of its payments was written since the last read, less
 * `NOTIFIED_MARGIN_MS` for transactions that began before that read and committed after it.
 * `MAX_AGE_MS` bounds what no notification announces: a payment created in a closed day, which only
 * a sandbox clock moved back can date there.
 */
export const NOTIFIED_MARGIN_MS = 2 * 60 * 1000;
export const MAX_AGE_MS = 10 * 60 * 1000;
/** Merchants remembered by one process; the least recently read is dropped first. */
const MERCHANTS = 500;

export interface ClosedDays<Group> {
  /** The database's time when the read that filled it began. */
  readAt: Date;
  /** When it was first filled, for MAX_AGE_MS. */
  filledAt: Date;
  days: Map<string, Group[]>;
}

const cache = new Map<string, ClosedDays<unknown>>();

export function cachedClosedDays<Group>(key: string, now: Date): ClosedDays<Group> | undefined {
  const entry = cache.get(key) as ClosedDays<Group> | undefined;
  if (!entry) return undefined;
  cache.delete(key);
  if (now.getTime() - entry.filledAt.getTime() > MAX_AGE_MS) return undefined;
  cache.set(key, entry);
  return entry;
}

export function rememberClosedDays<Group>(key: string, entry: ClosedDays<Group>): void {
  cache.delete(key);
  cache.set(key, entry);
  if (cache.size > MERCHANTS) cache.delete(cache.keys().next().value!);
}
