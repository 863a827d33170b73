// A promo code as a guest may type it. Owners name codes in Russian («ЛЕТО») or in Latin
// («SUMMER»); guests type them in any case, mix up the letters that look alike (Russian С and
// Latin C), or type the whole code with the other keyboard layout on («KTNJ» for «ЛЕТО»,
// «ЫГЬЬУК» for «SUMMER»). promoCodeKey gives every such spelling of a code the same key, so the
// server finds the code from what was typed and refuses two codes a guest could not tell apart.

/** The keys of a standard Russian keyboard (ЙЦУКЕН), each under the QWERTY character it shares a key with. */
const QWERTY = "`QWERTYUIOP[]ASDFGHJKL;'ZXCVBNM,.";
const JCUKEN = 'ЁЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮ';
/** Shift on the QWERTY side types these for the Russian capitals Ё Х Ъ Ж Э Б Ю: read as the unshifted key. */
const SHIFTED: Readonly<Record<string, string>> = {
  '~': '`',
  '{': '[',
  '}': ']',
  ':': ';',
  '"': "'",
  '<': ',',
  '>': '.',
};
/** Russian and Latin capitals that look the same. */
const LOOK_ALIKE: readonly (readonly [string, string])[] = [...'САЕОРКМТХНВ'].map(
  (ru, i) => [ru, 'CAEOPKMTXHB'[i]!] as const,
);

const otherLayout = new Map<string, string>(
  [...QWERTY].flatMap(
    (en, i) =>
      [
        [en, JCUKEN[i]!],
        [JCUKEN[i]!, en],
      ] as const,
  ),
);
/** The character the same key types on the other layout (upper case in, upper case out). */
const swapLayout = (ch: string) => otherLayout.get(ch) ?? ch;

/**
 * Each character's stand-in: the characters that must not tell two codes apart share one.
 * A look-alike pair (Т, T) shares one; so must the letters the pair's key types on the other
 * layout (N and Е): «Т» typed on the wrong layout is N, «T» is Е, and both must still find the
 * code. Chained, Е, E and N share one stand-in, as do Т, T, У; Р, P, Y; Н, H, З. That is the
 * price of accepting wrong-layout typing of codes that mix the two alphabets: codes differing
 * only there count as one.
 */
const standIn = (() => {
  const parent = new Map<string, string>();
  const root = (ch: string): string => {
    const up = parent.get(ch);
    return up === undefined || up === ch ? ch : root(up);
  };
  const join = (a: string, b: string) => {
    const [ra, rb] = [root(a), root(b)];
    // The smaller character stands in for the group, so the result does not depend on the order of joins.
    if (ra !== rb) ra < rb ? parent.set(rb, ra) : parent.set(ra, rb);
  };
  for (const [ru, en] of LOOK_ALIKE) {
    join(ru, en);
    join(swapLayout(ru), swapLayout(en));
  }
  return new Map([...parent.keys()].map((ch) => [ch, root(ch)]));
})();

const normalized = (typed: string) => [...typed.trim().toUpperCase()].map((ch) => SHIFTED[ch] ?? ch);
const keyOf = (chars: readonly string[]) => chars.map((ch) => standIn.get(ch) ?? ch).join('');

/**
 * The key a code is found by: the same for the code as the owner wrote it and as a guest types
 * it in any case, with look-alike letters of the other alphabet, or on the other keyboard layout.
 * Of the code read as typed and read as typed on the other layout, the smaller key is taken, so
 * a code and its wrong-layout typing give the same one.
 */
export function promoCodeKey(typed: string): string {
  const chars = normalized(typed);
  const asTyped = keyOf(chars);
  const otherWay = keyOf(chars.map(swapLayout));
  return asTyped <= otherWay ? asTyped : otherWay;
}

/** What the owner may name a code: Russian or Latin letters, digits, «-» and «_». */
export const PROMO_CODE_PATTERN = /^[0-9A-Za-zА-ЯЁа-яё_-]{3,20}$/;
