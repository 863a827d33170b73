// The price of one stay as the server gives it (GET /api/quote) and stores it (POST /api/bookings):
// the cabin's pricing rules (worker/queries/pricing.ts), the extras the guest ticked, the promo code
// typed, and the one pricing function (schema/pricing.ts). Nothing the browser sends sets a price.
import { todayInMoscow, type IsoDate } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import { quoteStay, type PricingRules, type PromoTerms, type Quote } from '../../schema/pricing.ts';
import type { Cabin } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { getCabin } from '../queries/cabins.ts';
import { checkPromo, pricingRules } from '../queries/pricing.ts';

type DbEnv = { DB: DatabasePort };
export type StayRequest = { cabinId: number; checkIn: IsoDate; checkOut: IsoDate; guests: number; extras?: readonly number[]; promo?: string | null };
export type Priced = { cabin: Cabin; rules: PricingRules; quote: Quote; promo: PromoTerms | null };
/** `promoRefused`: the code typed was the reason (the promo-code limit counts those). */
export type PriceRefusal = { status: 400 | 404; error: string; promoRefused?: true };

/** Prices a stay for a visitor: 404 for a cabin that is not shown, 400 with the reason for guests, an extra or a code that do not fit. */
export async function priceRequest(env: DbEnv, req: StayRequest): Promise<{ ok: true; priced: Priced } | ({ ok: false } & PriceRefusal)> {
  const cabin = await getCabin(env, req.cabinId);
  if (!cabin || !cabin.active) return { ok: false, status: 404, error: MSG.cabinNotFound };
  if (req.guests > cabin.maxGuests) return { ok: false, status: 400, error: MSG.bookingTooManyGuests };
  const rules = (await pricingRules(env, req.checkIn, req.checkOut, [cabin.id])).get(cabin.id)!;
  const offered = new Set(rules.extras.map((e) => e.id));
  if ((req.extras ?? []).some((id) => !offered.has(id))) return { ok: false, status: 400, error: MSG.extraNotFound };
  const today = todayInMoscow(now());
  let promo: PromoTerms | null = null;
  if (req.promo?.trim()) {
    const checked = await checkPromo(env, req.promo, { checkIn: req.checkIn, checkOut: req.checkOut, today });
    if (!checked.ok) return { ok: false, status: 400, error: checked.error, promoRefused: true };
    promo = checked.terms;
  }
  const quote = quoteStay(rules, { checkIn: req.checkIn, checkOut: req.checkOut, guests: req.guests, extras: req.extras ?? [], promo, today });
  return { ok: true, priced: { cabin, rules, quote, promo } };
}
