// What «Журнал» keeps of a request's body and of the values it replaced: never a secret. Any key
// that names one (a password, a secret, a token, a key, a code) keeps only «***», at any depth.

const SECRET_KEY = /password|secret|token|key|code/i;
/** Names that match the pattern but hold nothing secret: the VAT code of the receipts. */
const NOT_SECRET = new Set(['vatCode']);
export const REDACTED = '***';

export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, SECRET_KEY.test(k) && !NOT_SECRET.has(k) && v !== undefined && v !== null && v !== '' ? REDACTED : redact(v)]),
    );
  }
  return value;
}
