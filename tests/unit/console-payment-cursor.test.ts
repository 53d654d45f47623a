import { describe, expect, it } from "vitest";
import { decodePaymentCursor, encodePaymentCursor } from "@/lib/console/payments/payment-cursor";
import { parsePaymentListQuery } from "@/lib/console/payments/payment-list-filters";

const ID = "00000000-0000-4000-8000-000000000000";
const cursorText = (micros: string) => Buffer.from(`${micros}.${ID}`).toString("base64url");

describe("payments list cursor in the URL", () => {
  it("reads back what the list hands out", () => {
    const cursor = { createdAtMicros: "1769940000123456", id: ID };
    expect(decodePaymentCursor(encodePaymentCursor(cursor))).toEqual(cursor);
  });

  it("refuses an edited cursor past the year 2286 as a field's problem (19 or 20 digits were a 500)", () => {
    for (const micros of ["9223372036854775807", "99999999999999999999", "99999999999999999"]) {
      expect(parsePaymentListQuery({ after: cursorText(micros) })).toEqual({
        ok: false,
        problems: [{ field: "after", message: "is not a page of this list" }],
      });
      expect(parsePaymentListQuery({ before: cursorText(micros) })).toEqual({
        ok: false,
        problems: [{ field: "before", message: "is not a page of this list" }],
      });
    }
  });
});
