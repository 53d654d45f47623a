import bidiFactory from "bidi-js";

const bidi = bidiFactory();

/** One piece of a line, drawn on its own: a word (or a run of one direction) or a gap. */
export interface VisualToken {
  text: string;
  space: boolean;
}

/**
 * A line's pieces in the order they are drawn from left to right (Unicode's bidirectional
 * algorithm, UAX #9, rules L1-L4, by bidi-js). Each piece is one direction: a right-to-left word
 * keeps its logical order, because the PDF library's shaper (fontkit) joins and reverses Arabic
 * letters itself; what it leaves alone, a lone bracket in a right-to-left run, is mirrored here.
 */
export function visualTokens(text: string, baseDirection: "ltr" | "rtl"): VisualToken[] {
  const { levels } = bidi.getEmbeddingLevels(text, baseDirection);
  const logical: { text: string; space: boolean; level: number }[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!;
    const space = /\s/.test(char);
    const level = levels[index]!;
    const last = logical.at(-1);
    if (last && last.space === space && last.level === level) last.text += char;
    else logical.push({ text: char, space, level });
  }
  for (const token of logical) {
    if (token.level % 2 === 1 && !/[\u0600-\u06ff\u0750-\u077f\ufb50-\ufdff\ufe70-\ufeff]/.test(token.text)) {
      token.text = [...token.text].map((char) => bidi.getMirroredCharacter(char) ?? char).join("");
    }
  }
  // L2: from the highest level down to the lowest odd one, reverse every run at that level or above.
  const highest = Math.max(0, ...logical.map((token) => token.level));
  const lowestOdd = Math.min(...logical.map((token) => (token.level % 2 === 1 ? token.level : token.level + 1)));
  for (let level = highest; level >= lowestOdd; level--) {
    for (let start = 0; start < logical.length;) {
      if (logical[start]!.level < level) {
        start++;
        continue;
      }
      let end = start;
      while (end + 1 < logical.length && logical[end + 1]!.level >= level) end++;
      logical.splice(start, end - start + 1, ...logical.slice(start, end + 1).reverse());
      start = end + 1;
    }
  }
  return logical.map(({ text: piece, space }) => ({ text: piece, space }));
}
