/** The days the home's chart shows: today and the 29 before it. */
export const CHART_DAYS = 30;

/**
 * A merchant's calendar: where its days begin. UTC until merchants have a time zone of their own
 * (contract 13, Time).
 */
export const DEFAULT_HOME_TIME_ZONE = "UTC";

export interface HomePeriods {
  timeZone: string;
  /** Midnight today, this Monday (ISO 8601 weeks), the 1st of this month, in the zone, as instants. */
  today: Date;
  week: Date;
  month: Date;
  /** Midnight of the chart's first day (29 days before today). */
  chartFrom: Date;
  /** The chart's days as calendar dates in the zone, oldest first ("2031-03-01"). */
  chartDays: string[];
  /** The earliest of month and chartFrom: one range covers every figure. */
  from: Date;
  /**
   * Every day from `from` to today, oldest first: its calendar date and the instants it begins and
   * ends (the next midnight).
   */
  days: { date: string; start: Date; end: Date }[];
  /** The calendar dates in the zone of today, this week's Monday and the month's 1st ("2031-03-01"). */
  dates: { today: string; week: string; month: string };
}

/**
 * The one place that says when today, this week and this month begin for a merchant, in its
 * IANA time zone (`timeZone`, UTC by default). Local midnights become instants through the zone's
 * offset at that midnight (a day of a daylight-saving change is 23 or 25 hours long).
 */
export function homePeriods(now: Date, timeZone: string = DEFAULT_HOME_TIME_ZONE): HomePeriods {
  const date = calendarDate(now, timeZone);
  // Everything below follows from the calendar date: computed once a day per zone (it is about
  // 250 formatToParts calls, 3 ms, the home's largest cost in Node before).
  const key = `${timeZone} ${date.year}-${date.month}-${date.day}`;
  const known = periodsOfDates.get(key);
  if (known) return known;
  if (periodsOfDates.size >= 1_000) periodsOfDates.clear();
  const periods = periodsOfDate(date, timeZone);
  periodsOfDates.set(key, periods);
  return periods;
}

const periodsOfDates = new Map<string, HomePeriods>();

function periodsOfDate({ year, month, day, weekday }: ReturnType<typeof calendarDate>, timeZone: string): HomePeriods {
  const today = zonedMidnight(year, month, day, timeZone);
  const week = zonedMidnight(year, month, day - ((weekday + 6) % 7), timeZone);
  const monthStart = zonedMidnight(year, month, 1, timeZone);
  const chartFrom = zonedMidnight(year, month, day - (CHART_DAYS - 1), timeZone);
  const chartDays = Array.from({ length: CHART_DAYS }, (_, index) =>
    isoDate(new Date(Date.UTC(year, month - 1, day - (CHART_DAYS - 1) + index))),
  );
  const dates = {
    today: isoDate(new Date(Date.UTC(year, month - 1, day))),
    week: isoDate(new Date(Date.UTC(year, month - 1, day - ((weekday + 6) % 7)))),
    month: isoDate(new Date(Date.UTC(year, month - 1, 1))),
  };
  const from = monthStart < chartFrom ? monthStart : chartFrom;
  const firstOffset = from === monthStart ? 1 - day : -(CHART_DAYS - 1);
  const days = Array.from({ length: 1 - firstOffset }, (_, index) => {
    const offset = firstOffset + index;
    return {
      date: isoDate(new Date(Date.UTC(year, month - 1, day + offset))),
      start: zonedMidnight(year, month, day + offset, timeZone),
      end: zonedMidnight(year, month, day + offset + 1, timeZone),
    };
  });
  return { timeZone, today, week, month: monthStart, chartFrom, chartDays, from, days, dates };
}

const calendars = new Map<string, Intl.DateTimeFormat>();

/** The calendar date and weekday (0 Sunday) of an instant in a zone. */
function calendarDate(at: Date, timeZone: string): { year: number; month: number; day: number; weekday: number } {
  let format = calendars.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
      hourCycle: "h23",
    });
    calendars.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  const year = Number(parts.year);
  const month = Number(parts.month);
  const day = Number(parts.day);
  return { year, month, day, weekday: new Date(Date.UTC(year, month - 1, day)).getUTCDay() };
}

/** The zone's offset from UTC at an instant, in milliseconds. */
function offsetAt(at: Date, timeZone: string): number {
  const { year, month, day } = calendarDate(at, timeZone);
  const format = calendars.get(timeZone)!;
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  const asUtc = Date.UTC(year, month - 1, day, Number(parts.hour), Number(parts.minute), Number(parts.second));
  return asUtc - Math.floor(at.getTime() / 1000) * 1000;
}

/** The instant of local midnight of a calendar date (day may overflow the month, as Date.UTC allows). */
function zonedMidnight(year: number, month: number, day: number, timeZone: string): Date {
  const naive = Date.UTC(year, month - 1, day);
  const first = naive - offsetAt(new Date(naive), timeZone);
  // Read the offset again at the found instant: a change between UTC midnight and local midnight moves it.
  return new Date(naive - offsetAt(new Date(first), timeZone));
}

function isoDate(at: Date): string {
  return at.toISOString().slice(0, 10);
}
