// A guest's booking as a few named steps, with no HTTP in it: the stay is priced, its minimum
// stay checked, and then either its nights are held for a prepayment whose page ЮKassa gives
// (falling back to a request when ЮKassa cannot be reached) or it is stored as a request
// («Заявка», «Новая»). The answer is a reason, never a status: the route maps reasons to HTTP, and
// tests call this with the database alone. The visitor's rate limit stays in the route, since it is
// keyed by the client's address, which only the request knows.
import type { BookingSubmit } from '../../schema/bookings.ts';
import { EARLY_LATE_MESSAGES, stayTimes, type Quote } from '../../schema/pricing.ts';
import type { Settings } from '../../schema/settings.ts';
import type { Booking } from '../../schema/tables.ts';
import { priceRequest, type PriceAnswer, type PriceRefusal, type Priced, type StayRequest } from '../calendar/quote.ts';
import { recheckFeeds } from '../calendar/sync.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { bookingNotice } from '../notify/notices.ts';
import { notifyOwner } from '../notify/owner.ts';
import { holdUntilOf, startPayment, type Later, type PaymentStart } from '../payments/prepayment.ts';
import { yookassaOf } from '../payments/yookassa.ts';
import { createBooking, holdBooking, neighboursFree, nightsTaken, type StoredPricing } from '../queries/bookings.ts';
import { getSettings } from '../queries/settings.ts';
import { revertHold } from '../transitions/hold.ts';

/** What the guest sent, less the form's own fields (the consent box, the honeypot). */
export type GuestBookingInput = Omit<BookingSubmit, 'website' | 'consent' | 'childrenAges' | 'pets'> &
  Partial<Pick<BookingSubmit, 'childrenAges' | 'pets'>>;

/**
 * Why a stay was priced but not booked: its nights are taken, it is shorter than the minimum
 * stay, or the promo code's last use went to another guest's hold after this stay was priced.
 */
export type BookingReason = 'notFree' | 'tooShort' | 'promoUsedUp';
export type BookingRefusal = { ok: false; reason: BookingReason } | PriceRefusal;

/** What the guest's card shows of the stay the server priced. */
export type BookingAnswer = Pick<Quote, 'nights' | 'total' | 'lines'>;

/**
 * A booking made: stored as a request, held for payment with ЮKassa's page to go to, or held and
 * then turned back into a request because ЮKassa could not start the payment.
 */
export type BookingMade =
  | { ok: true; kind: 'request' | 'fellBackToRequest'; booking: Booking; answer: BookingAnswer }
  | { ok: true; kind: 'held'; booking: Booking; answer: BookingAnswer; payment: PaymentStart };

export type BookingOutcome = BookingMade | BookingRefusal;

export type BookingDeps = {
  /** Work that must not delay the guest's answer (feed alerts, the owner's notice); its failure is only logged. */
  later: Later;
  /** The public address ЮKassa sends the guest back to. */
  origin: string;
  /**
   * How the stay is priced; the route passes its promo-guess limit around priceRequest, which
   * needs the visitor's address. Without it the stay is priced as it is.
   */
  price?: (req: StayRequest) => Promise<PriceAnswer>;
};

/** A guest's booking from their form: made, or the reason it was not. */
export async function createGuestBooking(
  env: Bindings,
  input: GuestBookingInput,
  deps: BookingDeps,
): Promise<BookingOutcome> {
  const priced = await (deps.price ?? ((req) => priceRequest(env, req)))(input);
  if (!priced.ok) return priced;
  if (!longEnough(priced.priced)) return { ok: false, reason: 'tooShort' };
  const { quote, promo, rules } = priced.priced;
  // An early check-in or a late check-out ticked whose neighbouring night is busy: the quote left
  // it out, a booking with it is refused rather than made without what the guest asked for.
  const withheld = quote.withheld.find((w) => input.extras.includes(w.id));
  if (withheld) return { ok: false, reason: 'earlyLate', error: withheld.reason };
  const settings = await getSettings(env);
  const stay: Stay = {
    ...priced.priced,
    answer: { nights: quote.nights, total: quote.total, lines: quote.lines },
    stored: { promoCode: promo?.code ?? null, extras: quote.extras, ...stayTimes(rules.extras, quote.extras) },
  };
  if (settings.bookingMode === 'prepayment' && yookassaOf(env)) return holdForPayment(env, input, stay, settings, deps);
  return storeRequest(env, input, stay, deps);
}

type Stay = Priced & { answer: BookingAnswer; stored: StoredPricing };

const longEnough = ({ quote }: Priced) => quote.nights >= quote.minNights;

/**
 * The nights held for the guest and a prepayment started. A code's use is counted with the hold,
 * in one batch (holdBooking): of two guests racing for its last use exactly one gets it, and a
 * hold that ends unpaid gives it back.
 */
async function holdForPayment(
  env: Bindings,
  input: GuestBookingInput,
  stay: Stay,
  settings: Settings,
  deps: BookingDeps,
): Promise<BookingOutcome> {
  const { cabin, quote, promo } = stay;
  // Another platform's booking made since the last sync must not be paid for here.
  await recheckFeeds(env, cabin.id, deps.later);
  const held = await holdBooking(env, input, quote, holdUntilOf(settings.holdMinutes, now()), stay.stored);
  if (!held) {
    // The batch wrote nothing: the nights, the night an early check-in or a late check-out keeps,
    // or the code's last use were taken meanwhile; the nights say which.
    if (await nightsTaken(env, cabin.id, input.checkIn, input.checkOut)) return { ok: false, reason: 'notFree' };
    const { earlyCheckIn, lateCheckOut } = stay.stored;
    if (earlyCheckIn || lateCheckOut) {
      const free = await neighboursFree(env, cabin.id, input.checkIn, input.checkOut);
      const lost = earlyCheckIn && !free.before ? 'earlyCheckIn' : lateCheckOut && !free.after ? 'lateCheckOut' : null;
      if (lost) return { ok: false, reason: 'earlyLate', error: EARLY_LATE_MESSAGES[lost] };
    }
    return { ok: false, reason: promo ? 'promoUsedUp' : 'notFree' };
  }
  const payment = await paymentOf(env, held, stay, settings, deps.origin);
  if (payment) {
    tellOwner(env, held, stay, deps, 'awaiting_payment');
    return { ok: true, kind: 'held', booking: held, answer: stay.answer, payment };
  }
  // ЮKassa is down: the guest's booking is not lost, it becomes a request the owner answers.
  const request = (await revertHold(env, held.id)) ?? held;
  tellOwner(env, request, stay, deps);
  return { ok: true, kind: 'fellBackToRequest', booking: request, answer: stay.answer };
}

/** ЮKassa's payment of a held booking, or null when it could not be created (the reason is logged). */
async function paymentOf(
  env: Bindings,
  held: Booking,
  { cabin, quote }: Stay,
  settings: Settings,
  origin: string,
): Promise<PaymentStart | null> {
  try {
    return await startPayment(env, held, cabin.name, {
      ...settings,
      firstNightPrice: quote.parts[0]?.pricePerNight ?? cabin.pricePerNight,
      origin,
    });
  } catch (err) {
    console.error(
      `Prepayment of booking ${held.id} could not be created; kept as a request:`,
      err instanceof Error ? err.message : err,
    );
    return null;
  }
}

/**
 * A request, stored as «Новая» when its nights are free. Requests for the same nights are all
 * kept until the owner confirms one, and a limited code's use is counted only then.
 */
async function storeRequest(
  env: Bindings,
  input: GuestBookingInput,
  stay: Stay,
  deps: BookingDeps,
): Promise<BookingOutcome> {
  if (await nightsTaken(env, stay.cabin.id, input.checkIn, input.checkOut)) return { ok: false, reason: 'notFree' };
  const booking = await createBooking(env, input, stay.quote, stay.stored);
  tellOwner(env, booking, stay, deps);
  return { ok: true, kind: 'request', booking, answer: stay.answer };
}

/** The owner's notice of a new booking, sent after the guest's answer. */
function tellOwner(
  env: Bindings,
  booking: Booking,
  { cabin }: Stay,
  deps: BookingDeps,
  status?: 'awaiting_payment',
): void {
  deps.later('Booking notification', notifyOwner(env, bookingNotice(booking, cabin.name, env.SITE_URL, status)));
}
