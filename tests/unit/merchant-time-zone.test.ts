import { describe, expect, it } from "vitest";
import { consoleDateTime } from "@/components/console/payment-labels";
import { parsePaymentListQuery } from "@/lib/console/payments/payment-list-filters";
import {
  canonicalTimeZone,
  defaultTimeZoneOf,
  instantOfWallClock,
  merchantTimeZone,
} from "@/lib/merchants/merchant-time-zone";
import { updateMerchantInput } from "@/lib/merchants/update-merchant.schema";

// ICU writes a narrow no-break space before AM/PM and right-to-left marks in Arabic dates: compared as a reader
// sees them.
const seen = (text: string) => text.replace(/[\u202f\u00a0]/g, " ").replace(/[\u200f\u061c]/g, "");

describe("the merchant's time zone", () => {
  it("defaults to its first country's zone: Algeria, Morocco, Tunisia; UTC elsewhere", () => {
    expect(defaultTimeZoneOf(["DZA", "MAR", "TUN"])).toBe("Africa/Algiers");
    expect(defaultTimeZoneOf(["MAR", "DZA"])).toBe("Africa/Casablanca");
    expect(defaultTimeZoneOf(["TUN"])).toBe("Africa/Tunis");
    expect(defaultTimeZoneOf(["SEN"])).toBe("UTC");
    expect(merchantTimeZone({ timeZone: null, countries: ["TUN", "DZA"] })).toBe("Africa/Tunis");
    expect(merchantTimeZone({ timeZone: "Europe/Paris", countries: ["TUN"] })).toBe("Europe/Paris");
  });

  it("takes an IANA name this server knows, by its canonical spelling, and nothing else", () => {
    expect(canonicalTimeZone("Africa/Algiers")).toBe("Africa/Algiers");
    expect(canonicalTimeZone(" africa/casablanca ")).toBe("Africa/Casablanca");
    expect(canonicalTimeZone("UTC")).toBe("UTC");
    for (const bogus of [
      "Mars/Olympus",
      "Africa/Algeirs",
      "+01:00",
      "GMT+1 ",
      "",
      "Africa/../etc/passwd",
      "x".repeat(80),
    ]) {
      expect(canonicalTimeZone(bogus), bogus).toBeNull();
    }
    const refused = updateMerchantInput.safeParse({ clientId: "x", timeZone: "Mars/Olympus" });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]).toMatchObject({
      path: ["timeZone"],
      message: "must be an IANA time zone name, such as Africa/Algiers",
    });
    expect(updateMerchantInput.parse({ clientId: "x", timeZone: "africa/tunis" }).timeZone).toBe("Africa/Tunis");
  });

  it("formats the console's times in the zone, the zone named, in English, French and Arabic", () => {
    const at = new Date("2026-11-28T21:05:09Z");
    expect(seen(consoleDateTime("en", "Africa/Algiers").format(at))).toBe("Nov 28, 2026, 10:05:09 PM GMT+1");
    expect(seen(consoleDateTime("fr", "Africa/Algiers").format(at))).toBe("28 nov. 2026, 22:05:09 UTC+1");
    expect(seen(consoleDateTime("ar", "Africa/Algiers").format(at))).toBe("28/11/2026، 10:05:09 م غرينتش+1");
    // Another zone, another day.
    expect(seen(consoleDateTime("en", "Asia/Tokyo").format(at))).toBe("Nov 29, 2026, 6:05:09 AM GMT+9");
    expect(seen(consoleDateTime("fr", "Asia/Tokyo").format(at))).toBe("29 nov. 2026, 06:05:09 UTC+9");
    expect(seen(consoleDateTime("ar", "Asia/Tokyo").format(at))).toBe("29/11/2026، 6:05:09 ص غرينتش+9");
    // Morocco leaves +1 for Ramadan (2026-02-15 to 2026-03-22 in its rules): the zone's own offset, not a fixed one.
    expect(seen(consoleDateTime("fr", "Africa/Casablanca").format(new Date("2026-03-01T12:00:00Z")))).toBe(
      "1 mars 2026, 12:00:00 UTC+0",
    );
  });

  it("reads a day or a time typed without a zone in the merchant's zone: the list's created from/to", () => {
    expect(instantOfWallClock("2026-01-16T00:00:00", "Africa/Algiers").toISOString()).toBe("2026-01-15T23:00:00.000Z");
    // Paris skips 02:00-03:00 on 2026-03-29: the day is 23 hours long, and its end is the next midnight.
    const days = parsePaymentListQuery(
      { createdFrom: "2026-03-29", createdTo: "2026-03-29" },
      { timeZone: "Europe/Paris" },
    );
    if (!days.ok) throw new Error("refused");
    expect(days.query.filters.createdFrom?.toISOString()).toBe("2026-03-28T23:00:00.000Z");
    expect(days.query.filters.createdBefore?.toISOString()).toBe("2026-03-29T22:00:00.000Z");
    const algiers = parsePaymentListQuery(
      { createdFrom: "2026-01-16T08:30", createdTo: "2026-01-16T09:00:00Z" },
      { timeZone: "Africa/Algiers" },
    );
    if (!algiers.ok) throw new Error("refused");
    expect(algiers.query.filters.createdFrom?.toISOString()).toBe("2026-01-16T07:30:00.000Z");
    // A time that names its zone keeps it.
    expect(algiers.query.filters.createdBefore?.toISOString()).toBe("2026-01-16T09:00:00.000Z");
    // Without a zone given, UTC (the API's and the CSV's).
    const utc = parsePaymentListQuery({ createdFrom: "2026-01-16" });
    expect(utc.ok && utc.query.filters.createdFrom?.toISOString()).toBe("2026-01-16T00:00:00.000Z");
  });
});
