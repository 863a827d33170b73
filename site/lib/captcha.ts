// The arithmetic captcha of the review form.
import { CAPTCHA } from '../../schema/constants.ts';

export type CaptchaOp = keyof Pick<typeof CAPTCHA, 'plus' | 'minus' | 'times'>;

export interface CaptchaQuestion {
  op: CaptchaOp;
  a: number;
  b: number;
  /** The correct answer. */
  answer: number;
  /** What the visitor sees, e.g. «7 + 5 = ?», «23 − 4 = ?», «6 × 3 = ?». */
  text: string;
}

/** A source of numbers in [0, 1), like Math.random; injectable for tests. */
export type RandomFn = () => number;

export const CAPTCHA_OPS: readonly CaptchaOp[] = ['plus', 'minus', 'times'];

/** The real minus (U+2212) and multiplication (U+00D7) signs. */
const SIGN: Record<CaptchaOp, string> = { plus: '+', minus: '\u2212', times: '\u00d7' };

/** An integer in [min, max], inclusive; tolerates a random function that returns 1. */
function randomInt([min, max]: readonly [number, number], random: RandomFn): number {
  const span = max - min + 1;
  return min + Math.min(span - 1, Math.max(0, Math.floor(random() * span)));
}

function compute(op: CaptchaOp, a: number, b: number): number {
  if (op === 'plus') return a + b;
  if (op === 'minus') return a - b;
  return a * b;
}

/** A fresh question: the operation, then both operands, from the ranges in CAPTCHA. */
export function createCaptcha(random: RandomFn = Math.random): CaptchaQuestion {
  const op = CAPTCHA_OPS[randomInt([0, CAPTCHA_OPS.length - 1], random)]!;
  const a = randomInt(CAPTCHA[op].a, random);
  const [bMin, bMax] = CAPTCHA[op].b;
  // The captcha promises a positive difference, which 10 − 10 would break: b stays below a.
  const b = randomInt([bMin, op === 'minus' ? Math.min(bMax, a - 1) : bMax], random);
  return { op, a, b, answer: compute(op, a, b), text: `${a} ${SIGN[op]} ${b} = ?` };
}

/** True when the trimmed input is exactly the answer, e.g. " 12 " for 12 (but not "12.0" or "1 2"). */
export function isCaptchaSolved(question: Pick<CaptchaQuestion, 'answer'>, input: string | null | undefined): boolean {
  return (input ?? '').trim() === String(question.answer);
}
