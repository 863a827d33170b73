import { Secret, TOTP as Totp } from 'otpauth';
import { RECOVERY_CODE_COUNT, TOTP } from '../../schema/account.ts';
import { now } from './clock.ts';
import { sha256Hex } from './password.ts';

// Two-factor sign-in by RFC 6238 through the `otpauth` package (pure JS: the same on Workers and
// Node), never a TOTP of our own making. It compares codes in constant time and looks one step
// either side of now for a phone's clock that drifts.

const totpOf = (secret: string, label = '') =>
  new Totp({
    issuer: TOTP.issuer,
    label,
    algorithm: TOTP.algorithm,
    digits: TOTP.digits,
    period: TOTP.periodSeconds,
    secret: Secret.fromBase32(secret),
  });

/** A new random secret, base32 as authenticator apps take it typed in. */
export const newTotpSecret = (): string => new Secret({ size: TOTP.secretBytes }).base32;

/** The otpauth:// address a QR code carries to the app. */
export const otpauthUrl = (secret: string, username: string): string => totpOf(secret, username).toString();

/**
 * The 30-second step the code belongs to, or null when it is not the secret's code within a step
 * of now. The caller refuses a step already used (users.totpLastStep), so a code works once.
 */
export function totpStep(secret: string, code: string): number | null {
  if (!/^\d+$/.test(code) || code.length !== TOTP.digits) return null;
  const at = now();
  const delta = totpOf(secret).validate({ token: code, timestamp: at, window: TOTP.window });
  return delta === null ? null : Math.floor(at / 1000 / TOTP.periodSeconds) + delta;
}

/** Whether a typed code looks like a code of the app (digits) rather than a recovery code. */
export const isAppCode = (code: string) => new RegExp(`^\\d{${TOTP.digits}}$`).test(code);

// Letters and digits nobody confuses when copying from paper (no 0/o, 1/l/i).
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten one-time codes «xxxxx-xxxxx» (about 49 bits each), to write down; only their hashes are kept. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const s = randomLetters(10);
    return `${s.slice(0, 5)}-${s.slice(5)}`;
  });
}

/** Letters of ALPHABET, each equally likely: bytes past the last whole multiple of its length are drawn again. */
function randomLetters(n: number): string {
  const limit = 256 - (256 % ALPHABET.length);
  let out = '';
  while (out.length < n) {
    for (const b of crypto.getRandomValues(new Uint8Array(n)))
      if (b < limit && out.length < n) out += ALPHABET[b % ALPHABET.length];
  }
  return out;
}

/** The hash kept of a recovery code, as typed in any case, with or without its dash and spaces. */
export const recoveryCodeHash = (code: string) => sha256Hex(code.replace(/[\s-]/g, '').toLowerCase());
