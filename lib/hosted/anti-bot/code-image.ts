import { randomInt } from "node:crypto";

// Seven segments a cell: a (top), b, c (right), d (bottom), e, f (left), g (middle), as line ends.
const SEGMENTS: Record<string, [number, number, number, number]> = {
  a: [2, 2, 18, 2],
  b: [18, 2, 18, 18],
  c: [18, 18, 18, 34],
  d: [2, 34, 18, 34],
  e: [2, 18, 2, 34],
  f: [2, 2, 2, 18],
  g: [2, 18, 18, 18],
};
const DIGIT_SEGMENTS = ["abcdef", "bc", "abged", "abgcd", "fgbc", "afgcd", "afgedc", "abc", "abcdefg", "abcdfg"];

const jitter = (value: number) => value + randomInt(-2, 3);

/**
 * The anti-bot check's code as an image (an SVG data: URL, which the hosted pages' CSP admits):
 * digits drawn as strokes, each cell tilted and its strokes shaken, over crossing lines, so the
 * page holds no text of the code for a script to read. Made on the server: no font, no library.
 */
export function codeImage(code: string): string {
  const cells = [...code].map((digit, index) => {
    const x = 12 + index * 28;
    const tilt = randomInt(-12, 13);
    const lines = [...DIGIT_SEGMENTS[Number(digit)]!]
      .map((segment) => SEGMENTS[segment]!)
      .map(([x1, y1, x2, y2]) => `<line x1="${jitter(x1)}" y1="${jitter(y1)}" x2="${jitter(x2)}" y2="${jitter(y2)}"/>`)
      .join("");
    return `<g transform="translate(${x} ${8 + randomInt(0, 6)}) rotate(${tilt} 10 18)">${lines}</g>`;
  });
  const noise = Array.from(
    { length: 5 },
    () => `<line x1="0" y1="${randomInt(0, 56)}" x2="180" y2="${randomInt(0, 56)}"/>`,
  ).join("");
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="180" height="56" viewBox="0 0 180 56">` +
    `<rect width="180" height="56" fill="#f8fafc"/>` +
    `<g stroke="#94a3b8" stroke-width="1">${noise}</g>` +
    `<g stroke="#0f172a" stroke-width="3" stroke-linecap="round" fill="none">${cells.join("")}</g></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`;
}
