/**
 * RFC 4180 CSV: fields separated by commas, records by CRLF; a field holding a comma, a double
 * quote, CR or LF is quoted, its quotes doubled. A spreadsheet runs a cell that begins with
 * =, +, -, @, a tab or CR as a formula (CSV injection, OWASP): such a cell gets a leading
 * apostrophe, which shows as text and computes nothing. Written here: the rules are these
 * few lines, no library needed.
 */
// A semicolon or a tab is quoted too (RFC 4180 allows quoting any field): Excel in a French or
// Arabic locale splits an opened .csv on ";", and LibreOffice's import on tabs and ";" as well, so
// an unquoted "a;=cmd|..." would start a new cell with a formula after the apostrophe's check (OWASP).
const NEEDS_QUOTES = /[",;\t\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: string): string {
  const inert = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(inert) ? `"${inert.replace(/"/g, '""')}"` : inert;
}

/** The cell separator: RFC 4180's comma, or the semicolon Excel expects where the decimal mark is a comma (fr, ar). */
export type CsvSeparator = "," | ";";

export function csvRecord(values: readonly string[], separator: CsvSeparator = ","): string {
  return `${values.map(csvField).join(separator)}\r\n`;
}
