/**
 * A merchant's time zone (contract 13): the console shows every time in it, with the zone
 * named. A merchant that has not chosen one has its first country's; a country without one in
 * this table, UTC. The CSV export keeps UTC whatever the setting.
 */
const TIME_ZONE_BY_COUNTRY: Readonly<Record<string, string>> = {
  DZA: "Africa/Algiers",
  MAR: "Africa/Casablanca",
  TUN: "Africa/Tunis",
};

export const FALLBACK_TIME_ZONE = "UTC";

/** The zone of a merchant that chose none: its first country's. */
export function defaultTimeZoneOf(countries: readonly string[]): string {
  return TIME_ZONE_BY_COUNTRY[countries[0] ?? ""] ?? FALLBACK_TIME_ZONE;
}

/** The zone the console shows a merchant's times in: its choice, or its first country's. */
export function merchantTimeZone(merchant: { timeZone: string | null; countries: readonly string[] }): string {
  return merchant.timeZone ?? defaultTimeZoneOf(merchant.countries);
}

// An IANA name (Area/Location, a few with a third part, or UTC): Intl also takes offsets such as
// "+01:00", which name no zone and do not follow its summer time.
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+){0,2}$/;

/**
 * The zone's canonical IANA name ("africa/algiers" -> "Africa/Algiers"), or null when this
 * server's time zone data (Intl, ICU) does not know it: only a zone every time can be shown in
 * is stored.
 */
export function canonicalTimeZone(name: string): string | null {
  const text = name.trim();
  if (!IANA_NAME.test(text)) return null;
  try {
    return new Intl.DateTimeFormat("en", { timeZone: text }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The zone's offset from UTC at an instant, in milliseconds (Africa/Algiers: +3,600,000). */
export function zoneOffsetMs(instant: Date, timeZone: string): number {
  const parts = wallClockFormat(timeZone).formatToParts(instant);
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((candidate) => candidate.type === type)!.value);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return wall - Math.floor(instant.getTime() / 1000) * 1000;
}

/**
 * The instant at which the clocks of `timeZone` show `wallClock` (ISO 8601 without a zone,
 * "2026-01-16T00:00:00"): what a merchant means by a day or a time it types in the console. In
 * the hour a summer change skips, the time after it; in the hour it repeats, the first.
 */
export function instantOfWallClock(wallClock: string, timeZone: string): Date {
  const asUtc = Date.parse(`${wallClock}Z`);
  const firstGuess = asUtc - zoneOffsetMs(new Date(asUtc), timeZone);
  return new Date(asUtc - zoneOffsetMs(new Date(firstGuess), timeZone));
}

const wallClockFormats = new Map<string, Intl.DateTimeFormat>();

function wallClockFormat(timeZone: string): Intl.DateTimeFormat {
  let format = wallClockFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    if (wallClockFormats.size < 1_000) wallClockFormats.set(timeZone, format);
  }
  return format;
}
