import { describe, expect, it } from "vitest";
import { csvField, csvRecord } from "@/lib/console/payments/csv";

describe("CSV of the console's export (RFC 4180, formula-safe)", () => {
  it("leaves plain fields as they are and ends each record with CRLF", () => {
    expect(csvRecord(["2026-01-01T00:00:00.000Z", "order-1", "12.345", "TND"])).toBe(
      "2026-01-01T00:00:00.000Z,order-1,12.345,TND\r\n",
    );
  });

  it("quotes a field with a comma, a double quote (doubled), a newline or a carriage return", () => {
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("line 1\nline 2")).toBe('"line 1\nline 2"');
    expect(csvField("a\rb")).toBe('"a\rb"');
  });

  it("keeps Arabic text as it is (UTF-8, no escaping)", () => {
    // The Arabic comma (U+060C) separates nothing in CSV: no quotes needed.
    expect(csvRecord(["طلب رقم ١٢", "أمينة، بن علي"])).toBe("طلب رقم ١٢,أمينة، بن علي\r\n");
    expect(csvField("أمينة, بن علي")).toBe('"أمينة, بن علي"');
  });

  it("makes a formula-looking cell inert with a leading apostrophe: =, +, -, @, tab, CR", () => {
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("+213555123456")).toBe("'+213555123456");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("@SUM(A1:A2)")).toBe("'@SUM(A1:A2)");
    expect(csvField("\t=1")).toBe('"\'\t=1"');
    expect(csvField("\r=1")).toBe('"\'\r=1"');
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    // Only the start counts.
    expect(csvField("a=1")).toBe("a=1");
  });

  it("quotes a field with a semicolon or a tab, so no cell starts inside it where ';' or tab separates cells", () => {
    // Opened in Excel with a French or Arabic list separator (";"), unquoted, the second cell would be the formula.
    expect(csvField("order;=cmd|' /C calc'!A0")).toBe(`"order;=cmd|' /C calc'!A0"`);
    expect(csvField("order\t@SUM(A1)")).toBe('"order\t@SUM(A1)"');
    expect(csvRecord(["a;b", "c"])).toBe('"a;b",c\r\n');
  });
});
