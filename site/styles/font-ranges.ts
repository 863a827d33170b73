// The characters of each Manrope file the site ships (scripts/subset-fonts.ts cuts them; base.css
// gives the same ranges as unicode-range, checked by test/unit/font-ranges.test.ts).
export type CodeRange = readonly [number, number];

export const MANROPE_SUBSETS: { file: string; source: string; ranges: CodeRange[] }[] = [
  {
    file: 'manrope-cyrillic.woff2',
    source: 'manrope-cyrillic-wght-normal.woff2',
    // Ё, А–я, ё, №
    ranges: [
      [0x401, 0x401],
      [0x410, 0x44f],
      [0x451, 0x451],
      [0x2116, 0x2116],
    ],
  },
  // Latin in two files, each small enough to arrive in the first round trip of its connection
  // (10 TCP segments, ~14 KB with the headers): as one file (16 KB) it took one more round trip
  // on slow 4G, and every page's LCP waited for it (Lighthouse: 1.06 → 0.91 s on /contacts).
  {
    file: 'manrope-figures.woff2',
    source: 'manrope-latin-wght-normal.woff2',
    // Space, digits, ASCII punctuation; no-break space, « ° · » ×; – — ‘ ’ ‚ “ ” „ • …; −
    ranges: [
      [0x20, 0x40],
      [0xa0, 0xa0],
      [0xab, 0xab],
      [0xb0, 0xb0],
      [0xb7, 0xb7],
      [0xbb, 0xbb],
      [0xd7, 0xd7],
      [0x2013, 0x2014],
      [0x2018, 0x201e],
      [0x2022, 0x2022],
      [0x2026, 0x2026],
      [0x2212, 0x2212],
    ],
  },
  {
    file: 'manrope-latin.woff2',
    source: 'manrope-latin-wght-normal.woff2',
    // A–Z, a–z and the ASCII signs between and after them ([ \ ] ^ _ ` { | } ~)
    ranges: [[0x41, 0x7e]],
  },
];

/** A subset's ranges as CSS unicode-range. */
export const unicodeRange = (ranges: CodeRange[]): string =>
  ranges
    .map(([a, b]) =>
      a === b
        ? `U+${a.toString(16).toUpperCase()}`
        : `U+${a.toString(16).toUpperCase()}-${b.toString(16).toUpperCase()}`,
    )
    .join(', ');
