import { describe, expect, it } from "vitest";
import { readTypedAmount } from "@/lib/money/typed-amount";

describe("an amount as a person types it (the link page's and the console's one reading)", () => {
  it("reads the decimal point, the decimal comma and the Arabic decimal separator alike", () => {
    for (const typed of ["10.5", "10,5", " 10,5 ", "١٠٫٥", "10\u066B5"])
      expect(readTypedAmount(typed), typed).toEqual({ kind: "amount", value: 10.5, fractionDigits: 1 });
    expect(readTypedAmount("1,500")).toEqual({ kind: "amount", value: 1.5, fractionDigits: 3 });
    expect(readTypedAmount("150")).toEqual({ kind: "amount", value: 150, fractionDigits: 0 });
  });

  it("tells a negative amount from text that is no number, and an empty field from both", () => {
    expect(readTypedAmount("-5")).toEqual({ kind: "negative" });
    expect(readTypedAmount("\u22125,25")).toEqual({ kind: "negative" });
    for (const typed of ["abc", "5-", "1.2.3", "1,2,3", "--5", "5e3"])
      expect(readTypedAmount(typed).kind, typed).toBe("not_a_number");
    for (const typed of ["", "   ", null, undefined]) expect(readTypedAmount(typed).kind).toBe("empty");
  });
});
