import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

/**
 * The text a reader's PDF viewer finds in a PDF (pdf.js, Mozilla's), one string a page: Arabic
 * presentation forms folded back to letters (NFKC), whitespace collapsed to single spaces.
 */
export async function pdfText(pdf: Uint8Array): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(pdf), useSystemFonts: false, isEvalSupported: false })
    .promise;
  const pages: string[] = [];
  for (let number = 1; number <= document.numPages; number++) {
    const content = await (await document.getPage(number)).getTextContent();
    pages.push(content.items.map((item) => ("str" in item ? item.str + (item.hasEOL ? "\n" : " ") : "")).join(""));
  }
  await document.destroy();
  return pages
    .join("\n")
    .normalize("NFKC")
    .replace(/[^\S\n]+/g, " ");
}
