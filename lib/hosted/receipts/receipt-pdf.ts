import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import PDFDocument from "pdfkit";
import { textDirection } from "../../i18n/locales";
import { visualTokens } from "./bidi-line";
import type { ReceiptContent } from "./receipt-content";

/**
 * IBM Plex Sans Arabic (SIL Open Font License, from npm): Arabic and Latin in one face, so a
 * merchant name in either script, an amount and a reference share one font. Resolved from the
 * project's root at run time: the file is read by pdfkit, never bundled.
 */
const FONT_FILES = {
  regular: "@expo-google-fonts/ibm-plex-sans-arabic/400Regular/IBMPlexSansArabic_400Regular.ttf",
  bold: "@expo-google-fonts/ibm-plex-sans-arabic/700Bold/IBMPlexSansArabic_700Bold.ttf",
} as const;

// Read once per process: a receipt then parses the font from memory, not from disk.
const fontBytes = new Map<keyof typeof FONT_FILES, Buffer>();

function fontFile(face: keyof typeof FONT_FILES): Buffer {
  let bytes = fontBytes.get(face);
  if (!bytes)
    fontBytes.set(
      face,
      (bytes = readFileSync(createRequire(path.join(process.cwd(), "package.json")).resolve(FONT_FILES[face]))),
    );
  return bytes;
}

const PAGE = { size: "A5" as const, margin: 40 };
const INK = "#0f172a";
const BIDI_MARKS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const MUTED = "#475569";

/**
 * The receipt as a PDF (A5, one page), in its language: Arabic shaped by the font's own rules
 * (pdfkit lays text out with fontkit) and set right to left, each line ordered by the Unicode
 * bidirectional algorithm so an amount or a reference inside Arabic reads as it should.
 */
export function renderReceiptPdf(content: ReceiptContent): Promise<Buffer> {
  const doc = new PDFDocument({
    size: PAGE.size,
    margin: PAGE.margin,
    info: { Title: content.title },
    lang: content.locale,
  });
  doc.registerFont("regular", fontFile("regular"));
  doc.registerFont("bold", fontFile("bold"));
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  const direction = textDirection(content.locale);
  const width = doc.page.width - 2 * PAGE.margin;
  let y = PAGE.margin;
  y += drawLine(doc, content.title, { y, width, direction, font: "bold", size: 20, color: INK }) + 8;
  doc
    .moveTo(PAGE.margin, y)
    .lineTo(PAGE.margin + width, y)
    .lineWidth(1)
    .strokeColor("#cbd5e1")
    .stroke();
  y += 14;
  for (const row of content.rows) {
    y += drawLine(doc, row.label, { y, width, direction, font: "regular", size: 9, color: MUTED }) + 2;
    y +=
      drawLine(doc, row.value, {
        y,
        width,
        direction: row.ltr ? "ltr" : direction,
        align: direction,
        font: row.field === "amount" ? "bold" : "regular",
        size: row.field === "amount" ? 16 : 12,
        color: INK,
      }) + 10;
  }
  doc.end();
  return done;
}

/**
 * One line on the page's reading side, drawn piece by piece in visual order; a line too wide
 * for the page is set smaller rather than cut. Returns the height used.
 */
function drawLine(
  doc: PDFKit.PDFDocument,
  text: string,
  options: {
    y: number;
    width: number;
    direction: "ltr" | "rtl";
    align?: "ltr" | "rtl";
    font: string;
    size: number;
    color: string;
  },
): number {
  // Directional marks (Intl puts them around an Arabic amount) have done their work in the
  // ordering; no glyph draws them.
  const tokens = visualTokens(text, options.direction)
    .map((token) => ({ ...token, text: token.text.replace(BIDI_MARKS, "") }))
    .filter((token) => token.text !== "");
  let size = options.size;
  doc.font(options.font).fontSize(size);
  // Each piece is laid out (shaped) once at the asked size; widths scale with the size.
  const widths = tokens.map((token) => doc.widthOfString(token.space ? " " : token.text));
  const natural = widths.reduce((sum, width) => sum + width, 0);
  if (natural > options.width) {
    size = Math.max(6, Math.floor((options.size * options.width * 2) / natural) / 2);
    doc.fontSize(size);
  }
  const scale = size / options.size;
  let x = (options.align ?? options.direction) === "rtl" ? PAGE.margin + options.width - natural * scale : PAGE.margin;
  doc.fillColor(options.color);
  tokens.forEach((token, index) => {
    if (!token.space) doc.text(token.text, x, options.y, { lineBreak: false });
    x += widths[index]! * scale;
  });
  return doc.currentLineHeight(true);
}
