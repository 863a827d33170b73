// What «Журнал» keeps of a request's body and of the values it replaced: never a secret. Any key
// that names one (a password, a secret, a token, a key, a code) keeps only «***», at any depth;
// an imported calendar's address (`url` of a `feeds` item) only its host and last 4 characters.
import { maskFeedUrl } from './feed-url.ts';

const SECRET_KEY = /password|secret|token|key|code/i;
/** Names that match the pattern but hold nothing secret: the VAT code of the receipts. */
const NOT_SECRET = new Set(['vatCode']);
export const REDACTED = '***';

export function redact(value: unknown, inFeeds = false): unknown {
  if (Array.isArray(value)) return value.map((v) => redact(v, inFeeds));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => {
        if (SECRET_KEY.test(k) && !NOT_SECRET.has(k) && v !== undefined && v !== null && v !== '') return [k, REDACTED];
        if (inFeeds && k === 'url' && typeof v === 'string') return [k, maskFeedUrl(v)];
        return [k, redact(v, inFeeds || k === 'feeds')];
      }),
    );
  }
  return value;
}
