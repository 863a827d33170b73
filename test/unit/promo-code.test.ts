import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROMO_CODE_PATTERN, promoCodeKey } from '../../schema/promo-code.ts';

// A promo code's matching key: a guest who types the owner's code in another case, with a
// look-alike letter of the other alphabet, or with the other keyboard layout on, still finds it.

/** What each key of a Russian keyboard types on the QWERTY layout, written out key by key (with and without Shift). */
const KEYS: Readonly<Record<string, string>> = {
  ё: '`',
  й: 'q',
  ц: 'w',
  у: 'e',
  к: 'r',
  е: 't',
  н: 'y',
  г: 'u',
  ш: 'i',
  щ: 'o',
  з: 'p',
  х: '[',
  ъ: ']',
  ф: 'a',
  ы: 's',
  в: 'd',
  а: 'f',
  п: 'g',
  р: 'h',
  о: 'j',
  л: 'k',
  д: 'l',
  ж: ';',
  э: "'",
  я: 'z',
  ч: 'x',
  с: 'c',
  м: 'v',
  и: 'b',
  т: 'n',
  ь: 'm',
  б: ',',
  ю: '.',
  Ё: '~',
  Х: '{',
  Ъ: '}',
  Ж: ':',
  Э: '"',
  Б: '<',
  Ю: '>',
};
const toQwerty = new Map<string, string>();
const toJcuken = new Map<string, string>();
for (const [ru, en] of Object.entries(KEYS)) {
  const pairs: [string, string][] = [[ru, en]];
  // A letter key with Shift: the capitals of both layouts (the punctuation keys are written out above).
  if (/[a-z]/.test(en)) pairs.push([ru.toUpperCase(), en.toUpperCase()]);
  for (const [r, e] of pairs) {
    toQwerty.set(r, e);
    toJcuken.set(e, r);
  }
}
/** A code typed with the wrong layout on: the guest presses the keys of each letter as the code shows it. */
const typedOnOtherLayout = (code: string) => [...code].map((ch) => toQwerty.get(ch) ?? toJcuken.get(ch) ?? ch).join('');

const LOOK_ALIKE: Readonly<Record<string, string>> = {
  С: 'C',
  А: 'A',
  Е: 'E',
  О: 'O',
  Р: 'P',
  К: 'K',
  М: 'M',
  Т: 'T',
  Х: 'X',
  Н: 'H',
  В: 'B',
};
const lookAlikeOf = new Map(
  Object.entries(LOOK_ALIKE).flatMap(([ru, en]) => [
    [ru, en],
    [en, ru],
    [ru.toLowerCase(), en.toLowerCase()],
    [en.toLowerCase(), ru.toLowerCase()],
  ]),
);

const CODE_CHARS = [
  ...'АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюяABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_',
];
/** A code as the owner may write it. */
const code = fc.array(fc.constantFrom(...CODE_CHARS), { minLength: 3, maxLength: 20 }).map((chars) => chars.join(''));
/** A code and, for each of its letters, whether the guest types the look-alike letter of the other alphabet. */
const codeWithSwaps = code.chain((c) =>
  fc.tuple(fc.constant(c), fc.array(fc.boolean(), { minLength: c.length, maxLength: c.length })),
);

describe('promo code key', () => {
  it.each([
    ['«каспий10» in lower case', 'каспий10', 'КАСПИЙ10'],
    ['«KACПИЙ10» with Latin K, A and C', 'KACПИЙ10', 'КАСПИЙ10'],
    ['"RFCGBQ10", typed on the QWERTY layout', 'RFCGBQ10', 'КАСПИЙ10'],
    ['"KTNJ" for «ЛЕТО», typed on the QWERTY layout', 'KTNJ', 'ЛЕТО'],
    ['"ЫГЬЬУК" for "SUMMER", typed on the Russian layout', 'ЫГЬЬУК', 'SUMMER'],
    ['"summer" in lower case', 'summer', 'SUMMER'],
    ['«хлеб» typed on the QWERTY layout, its х and б on punctuation keys', '[kt,', 'ХЛЕБ'],
  ])("should match %s to the owner's code", (_, typed, saved) => {
    expect(promoCodeKey(typed)).toBe(promoCodeKey(saved));
  });

  it.each([
    ['ЛЕТО', 'ЗИМА'],
    ['SUMMER', 'SUMMIT'],
    ['КАСПИЙ10', 'КАСПИЙ11'],
    ['LETO', 'ЛЕТО'],
  ])('should keep %s and %s apart', (a, b) => {
    expect(promoCodeKey(a)).not.toBe(promoCodeKey(b));
  });

  it('should allow Russian and Latin letters, digits, «-» and «_», 3 to 20 of them', () => {
    for (const ok of ['ЛЕТО', 'лето-2027', 'SUMMER_10', 'KACПИЙ10', 'ёлка']) expect(ok).toMatch(PROMO_CODE_PATTERN);
    for (const bad of ['ЛЕ', 'ЛЕТО 10', 'LETO!', 'ЛЕТО10ЛЕТО10ЛЕТО10ЛЕТО', 'ΛΕΤΟ'])
      expect(bad).not.toMatch(PROMO_CODE_PATTERN);
  });

  it('should be its own key: the key of a key is the same key', () => {
    fc.assert(
      fc.property(fc.oneof(code, fc.string({ unit: 'binary', maxLength: 30 })), (s) => {
        expect(promoCodeKey(promoCodeKey(s))).toBe(promoCodeKey(s));
      }),
    );
  });

  it('should not tell upper and lower case apart', () => {
    fc.assert(
      fc.property(code, fc.array(fc.boolean(), { maxLength: 20 }), (c, lower) => {
        const mixed = [...c].map((ch, i) => (lower[i] ? ch.toLowerCase() : ch.toUpperCase())).join('');
        expect(promoCodeKey(mixed)).toBe(promoCodeKey(c));
        expect(promoCodeKey(c.toLowerCase())).toBe(promoCodeKey(c.toUpperCase()));
      }),
    );
  });

  it('should not tell a letter from its look-alike of the other alphabet', () => {
    fc.assert(
      fc.property(codeWithSwaps, ([c, swaps]) => {
        const typed = [...c].map((ch, i) => (swaps[i] ? (lookAlikeOf.get(ch) ?? ch) : ch)).join('');
        expect(promoCodeKey(typed)).toBe(promoCodeKey(c));
      }),
    );
  });

  it('should find any code typed with the other keyboard layout on, look-alikes and all', () => {
    fc.assert(
      fc.property(codeWithSwaps, ([c, swaps]) => {
        expect(promoCodeKey(typedOnOtherLayout(c))).toBe(promoCodeKey(c));
        const withLookAlikes = [...c].map((ch, i) => (swaps[i] ? (lookAlikeOf.get(ch) ?? ch) : ch)).join('');
        expect(promoCodeKey(typedOnOtherLayout(withLookAlikes))).toBe(promoCodeKey(c));
      }),
    );
  });
});
