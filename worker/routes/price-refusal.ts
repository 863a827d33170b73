import type { Context } from 'hono';
import type { PriceReason, PriceRefusal } from '../calendar/quote.ts';
import { apiError } from '../lib/errors.ts';

/** How GET /api/quote and POST /api/bookings answer a stay that was not priced. */
const STATUS: Record<PriceReason, 400 | 404 | 409 | 429> = {
  'cabin-missing': 404,
  guests: 400,
  pets: 400,
  closed: 400,
  extra: 400,
  // The night beside the stay is taken: the same kind of answer as nights taken.
  earlyLate: 409,
  promo: 400,
  'promo-throttled': 429,
};

export const refusePrice = (c: Context, refusal: PriceRefusal) => apiError(c, STATUS[refusal.reason], refusal.error);
