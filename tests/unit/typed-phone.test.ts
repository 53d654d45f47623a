import { describe, expect, it } from "vitest";
import { phoneNumbersOf } from "@/lib/geo/typed-phone";

const ALGERIA = ["DZA"];
const MAGHREB = ["DZA", "MAR", "TUN"];

describe("a phone as a person types it, read as the E.164 numbers it may be", () => {
  it.each([
    ["+213555123456"],
    ["+213 555 12 34 56"],
    ["+213-555-12-34-56"],
    ["213555123456"],
    ["213 555 12 34 56"],
    ["00213 555 12 34 56"],
    ["0555 12 34 56"],
    ["0555123456"],
    ["0555-12-34-56"],
    ["(0555) 12.34.56"],
    ["555 12 34 56"],
    ["+213 (0) 555 12 34 56"],
    ["٠٥٥٥ ١٢ ٣٤ ٥٦"],
    ["+٢١٣٥٥٥١٢٣٤٥٦"],
    ["۰۵۵۵۱۲۳۴۵۶"],
    ["\u200e+213 555 12 34 56\u200f"],
    ["0555\u00a012\u00a034\u00a056"],
  ])("%s is +213555123456 for a merchant in Algeria", (typed) => {
    expect(phoneNumbersOf(typed, ALGERIA)).toContain("+213555123456");
  });

  it("reads the national form in each of the merchant's countries, a trunk 0 only where that country dials one", () => {
    expect(phoneNumbersOf("0612345678", MAGHREB).sort()).toEqual(["+212612345678", "+213612345678"]);
    // Tunisia has no trunk 0: its national numbers are 8 digits as they are.
    expect(phoneNumbersOf("20 123 456", MAGHREB)).toContain("+21620123456");
    expect(phoneNumbersOf("20 123 456", ALGERIA)).not.toContain("+21620123456");
    // Without the merchant's countries, only the international readings.
    expect(phoneNumbersOf("0555123456", [])).toEqual([]);
    expect(phoneNumbersOf("+213555123456", [])).toEqual(["+213555123456"]);
  });

  it("finds no phone in what is not one", () => {
    expect(phoneNumbersOf("order-1234", MAGHREB)).toEqual([]);
    expect(phoneNumbersOf("Amina Benali", MAGHREB)).toEqual([]);
    expect(phoneNumbersOf("+213 555 12 34 5x", MAGHREB)).toEqual([]);
    expect(phoneNumbersOf("", MAGHREB)).toEqual([]);
    // Four digits are a card's last 4, too short for any number.
    expect(phoneNumbersOf("4242", MAGHREB)).toEqual([]);
    // Longer than E.164 allows.
    expect(phoneNumbersOf("+2135551234567890", MAGHREB)).toEqual([]);
  });
});
