import { afterEach, describe, expect, it } from "vitest";
import { parsePaymentListQuery } from "@/lib/console/payments/payment-list-filters";

const DATE_RULE = "must be a date (YYYY-MM-DD) or an ISO 8601 time";

describe("payments list: created from/to in the URL", () => {
  const zone = process.env.TZ;
  afterEach(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it("refuses a day that does not exist instead of rolling it into the next month", () => {
    for (const createdTo of ["2026-02-30", "2026-04-31", "2026-02-30T10:00:00Z", "2026-01-01T24:30:00Z"]) {
      expect(parsePaymentListQuery({ createdTo })).toEqual({
        ok: false,
        problems: [{ field: "createdTo", message: DATE_RULE }],
      });
    }
  });

  it("reads a time without a zone as UTC, whatever the server's own zone", () => {
    process.env.TZ = "Africa/Tunis";
    const parsed = parsePaymentListQuery({ createdFrom: "2026-01-01T10:00", createdTo: "2026-01-01T12:00:00+01:00" });
    expect(parsed.ok && parsed.query.filters.createdFrom?.toISOString()).toBe("2026-01-01T10:00:00.000Z");
    expect(parsed.ok && parsed.query.filters.createdBefore?.toISOString()).toBe("2026-01-01T11:00:00.000Z");
  });

  it("still takes a day (the whole day, UTC) and a full ISO 8601 time", () => {
    const parsed = parsePaymentListQuery({ createdFrom: "2024-02-29", createdTo: "2026-02-28" });
    expect(
      parsed.ok && [parsed.query.filters.createdFrom?.toISOString(), parsed.query.filters.createdBefore?.toISOString()],
    ).toEqual(["2024-02-29T00:00:00.000Z", "2026-03-01T00:00:00.000Z"]);
    expect(parsePaymentListQuery({ createdFrom: "2026-02-10T23:59:59.5Z" }).ok).toBe(true);
  });
});
