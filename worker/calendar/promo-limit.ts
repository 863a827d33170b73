import type { Context } from 'hono';
import { PROMO_THROTTLE } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { clientAddressKey } from '../lib/client-ip.ts';
import { guessWait } from '../lib/guess-limits.ts';
import { uncountGuess } from '../queries/rate-limit.ts';
import { priceRequest, type PriceAnswer, type StayRequest } from './quote.ts';

/**
 * priceRequest for a visitor, with their address's promo-code guesses limited (PROMO_THROTTLE;
 * one count for GET /api/quote and POST /api/bookings), so codes cannot be found by trying them.
 * A code is counted before it is checked, so parallel tries cannot slip past, and taken back
 * unless it was the reason for a refusal. Past the free ones the refusal is `promo-throttled`
 * (a 429), its Retry-After already set. A stay without a code is priced as it is.
 */
export async function priceForVisitor(c: Context<AppEnv>, req: StayRequest): Promise<PriceAnswer> {
  if (!req.promo?.trim()) return priceRequest(c.env, req);
  const key = `promo:${clientAddressKey(c)}`;
  const wait = await guessWait(c.env, [{ key, schedule: PROMO_THROTTLE }]);
  if (wait !== undefined) {
    c.header('Retry-After', String(wait));
    return { ok: false, reason: 'promo-throttled', error: MSG.promoThrottled };
  }
  const result = await priceRequest(c.env, req);
  if (result.ok || result.reason !== 'promo') await uncountGuess(c.env, key);
  return result;
}
