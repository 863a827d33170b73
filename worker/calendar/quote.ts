// The price of one stay as the server gives it (GET /api/quote) and stores it (POST /api/bookings):
// the cabin's pricing rules (worker/queries/pricing.ts), the extras the guest ticked, the promo code
// typed, and the one pricing function (schema/pricing.ts). Nothing the browser sends sets a price.
import { addDays, todayInMoscow, type IsoDate } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import {
  CLOSED_MESSAGES,
  type Neighbours,
  quoteStay,
  stayClosed,
  takesGuests,
  type PricingRules,
  type PromoTerms,
  type Quote,
} from '../../schema/pricing.ts';
import type { Cabin } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { neighboursFree } from '../queries/bookings.ts';
import { getCabin } from '../queries/cabins.ts';
import { checkPromo, pricingRules } from '../queries/pricing.ts';

type DbEnv = { DB: DatabasePort };
export type StayRequest = {
  cabinId: number;
  checkIn: IsoDate;
  checkOut: IsoDate;
  /** The adults; the children come in childrenAges and count toward the cabin's guests too. */
  guests: number;
  childrenAges?: readonly number[];
  pets?: boolean;
  extras?: readonly number[];
  promo?: string | null;
};
export type Priced = { cabin: Cabin; rules: PricingRules; quote: Quote; promo: PromoTerms | null };
/**
 * Why a stay was not priced, for the routes to answer as HTTP (worker/routes/price-refusal.ts):
 * the cabin is not shown, too many guests (adults and children), pets where none may come, a stay
 * arriving or leaving on a day its season closes or longer than it allows, an extra it does not
 * offer, an early check-in or a late check-out ticked whose neighbouring night is busy (only a
 * booking is refused for it: a quote leaves it out and says why), the code typed (the promo-code
 * limit counts those), or too many codes tried from one address (promo-limit.ts).
 */
export type PriceReason =
  | 'cabin-missing'
  | 'guests'
  | 'pets'
  | 'closed'
  | 'extra'
  | 'earlyLate'
  | 'promo'
  | 'promo-throttled';
export type PriceRefusal = { ok: false; reason: PriceReason; error: string };
export type PriceAnswer = { ok: true; priced: Priced } | PriceRefusal;

/** Prices a stay for a visitor, or says why not with the Russian text the guest reads. */
export async function priceRequest(env: DbEnv, req: StayRequest): Promise<PriceAnswer> {
  const cabin = await getCabin(env, req.cabinId);
  if (!cabin || !cabin.active) return { ok: false, reason: 'cabin-missing', error: MSG.cabinNotFound };
  const childrenAges = req.childrenAges ?? [];
  if (!takesGuests(cabin.maxGuests, req.guests, childrenAges))
    return { ok: false, reason: 'guests', error: MSG.bookingTooManyGuests };
  if (req.pets && !cabin.pets.allowed) return { ok: false, reason: 'pets', error: MSG.petsNotAllowed };
  // The departure day's season may begin at check-out: the rules are read up to the day after it.
  const rules = (await pricingRules(env, req.checkIn, addDays(req.checkOut, 1), [cabin.id])).get(cabin.id)!;
  const closed = stayClosed(rules.seasons, req.checkIn, req.checkOut);
  if (closed) return { ok: false, reason: 'closed', error: CLOSED_MESSAGES[closed] };
  const offered = new Set(rules.extras.map((e) => e.id));
  if ((req.extras ?? []).some((id) => !offered.has(id)))
    return { ok: false, reason: 'extra', error: MSG.extraNotFound };
  // The neighbouring nights are read only for a cabin that offers an early check-in or a late check-out.
  const neighbours: Neighbours | undefined = rules.extras.some((e) => (e.kind ?? 'ordinary') !== 'ordinary')
    ? await neighboursFree(env, cabin.id, req.checkIn, req.checkOut)
    : undefined;
  const today = todayInMoscow(now());
  let promo: PromoTerms | null = null;
  if (req.promo?.trim()) {
    const checked = await checkPromo(env, req.promo, { checkIn: req.checkIn, checkOut: req.checkOut, today });
    if (!checked.ok) return { ok: false, reason: 'promo', error: checked.error };
    promo = checked.terms;
  }
  const quote = quoteStay(rules, {
    checkIn: req.checkIn,
    checkOut: req.checkOut,
    guests: req.guests,
    childrenAges,
    pets: req.pets ?? false,
    extras: req.extras ?? [],
    promo,
    today,
    ...(neighbours ? { neighbours } : {}),
  });
  return { ok: true, priced: { cabin, rules, quote, promo } };
}
