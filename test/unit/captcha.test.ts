import { describe, expect, it } from 'vitest';
import { CAPTCHA } from '../../schema/constants.ts';
import { seededRandom } from '../../site/lib/seeded-random.ts';
import { createCaptcha, isCaptchaSolved, type CaptchaQuestion } from '../../site/lib/captcha.ts';

/** Seeded, so failures are reproducible. */
const seeded = seededRandom;

const inRange = (n: number, [min, max]: readonly [number, number]) => Number.isInteger(n) && n >= min && n <= max;

function many(): CaptchaQuestion[] {
  const out: CaptchaQuestion[] = [];
  for (let seed = 1; seed <= 2000; seed++) out.push(createCaptcha(seeded(seed)));
  return out;
}

describe('captcha', () => {
  it('should keep both operands in the schema ranges for every seed', () => {
    for (const q of many()) {
      expect(inRange(q.a, CAPTCHA[q.op].a), `${q.text} a`).toBe(true);
      expect(inRange(q.b, CAPTCHA[q.op].b), `${q.text} b`).toBe(true);
    }
  });

  it('should produce every operation', () => {
    const ops = new Set(many().map((q) => q.op));
    expect([...ops].sort()).toEqual(['minus', 'plus', 'times']);
  });

  it('should reach both ends of every range', () => {
    const qs = many();
    for (const op of ['plus', 'minus', 'times'] as const) {
      const of = qs.filter((q) => q.op === op);
      expect(Math.min(...of.map((q) => q.a))).toBe(CAPTCHA[op].a[0]);
      expect(Math.max(...of.map((q) => q.a))).toBe(CAPTCHA[op].a[1]);
      expect(Math.min(...of.map((q) => q.b))).toBe(CAPTCHA[op].b[0]);
      expect(Math.max(...of.map((q) => q.b))).toBe(CAPTCHA[op].b[1]);
    }
  });

  it('should always give a positive result for minus', () => {
    const minus = many().filter((q) => q.op === 'minus');
    expect(minus.length).toBeGreaterThan(100);
    for (const q of minus) expect(q.answer).toBeGreaterThan(0);
  });

  it('should keep minus positive even when both operands would be at their limits (10 − 10)', () => {
    // op minus, a = 10 (lowest), b drawn as high as possible.
    const seq = [0.5, 0, 0.999999];
    const q = createCaptcha(() => seq.shift() ?? 0);
    expect(q.op).toBe('minus');
    expect(q.a).toBe(10);
    expect(q.b).toBe(9);
    expect(q.answer).toBe(1);
  });

  it('should compute the answer of each operation', () => {
    for (const q of many()) {
      const expected = q.op === 'plus' ? q.a + q.b : q.op === 'minus' ? q.a - q.b : q.a * q.b;
      expect(q.answer).toBe(expected);
    }
  });

  it('should never need more digits than the answer field allows', () => {
    for (const q of many()) expect(String(q.answer).length).toBeLessThanOrEqual(CAPTCHA.answerMaxLength);
  });

  it('should write the question with the real plus, minus and times signs', () => {
    // Random values pick: op index, then a, then b.
    const seq =
      (...v: number[]) =>
      () =>
        v.shift() ?? 0;
    expect(createCaptcha(seq(0, 0.3, 0.2)).text).toBe('7 + 5 = ?');
    expect(createCaptcha(seq(0.5, 0.45, 0.3)).text).toBe('23 \u2212 4 = ?');
    expect(createCaptcha(seq(0.9, 0.55, 0.25)).text).toBe('6 \u00d7 3 = ?');
  });

  it('should stay in range even when the random function returns 1', () => {
    const q = createCaptcha(() => 1);
    expect(q.op).toBe('times');
    expect([q.a, q.b]).toEqual([10, 10]);
  });

  it('should accept the answer with surrounding spaces', () => {
    const q = { answer: 12 };
    expect(isCaptchaSolved(q, '12')).toBe(true);
    expect(isCaptchaSolved(q, '  12 ')).toBe(true);
    expect(isCaptchaSolved(q, '\t12\n')).toBe(true);
  });

  it('should reject wrong, empty or malformed input', () => {
    const q = { answer: 12 };
    for (const bad of ['', '   ', '13', '1 2', '12.0', '012', '+12', 'двенадцать', null, undefined]) {
      expect(isCaptchaSolved(q, bad), String(bad)).toBe(false);
    }
  });

  it('should make a fresh question invalid until solved', () => {
    const q = createCaptcha(seeded(7));
    expect(isCaptchaSolved(q, '')).toBe(false);
    expect(isCaptchaSolved(q, String(q.answer))).toBe(true);
  });
});
