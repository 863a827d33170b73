// The booking card's rules for picking a stay from the live availability:
// which day may be a check-in, which a check-out, and what a click on a day does. Pure, on
// `YYYY-MM-DD` strings, so the calendar widget only draws what these functions decide.
import { addDays, isoWeekday, todayInMoscow, type IsoDate } from '../../schema/dates.ts';
import { NO_CHARGES, type BookingMode, type Prepayment, type StayCharges } from '../../schema/payment-options.ts';
import {
  extraOffered,
  minNightsFrom,
  quoteStay,
  WEEKEND_NIGHTS_DEFAULT,
  type DatePrice,
  type Discount,
  type Extra,
  type Neighbours,
  type PricingRules,
  type ChildrenRule,
  type PetsRule,
  type Quote,
  type SeasonRates,
  seasonOf,
} from '../../schema/pricing.ts';

/** GET /api/cabins/{id}/availability. */
export type Availability = {
  from: IsoDate;
  to: IsoDate;
  /** Busy nights, [start, end) each. */
  busy: { start: IsoDate; end: IsoDate }[];
  seasons: SeasonRates[];
  pricePerNight: number;
  minNights: number;
  /** The owner's pricing beyond seasons: weekends, single dates, guests beyond the price, discounts, extras. */
  weekendPricePerNight?: number | null;
  weekendNights?: number[];
  baseGuests?: number;
  extraGuestPerNight?: number;
  /** Children by age; pets allowed and their fee. */
  children?: ChildrenRule;
  pets?: PetsRule;
  datePrices?: DatePrice[];
  discounts?: Discount[];
  extras?: Extra[];
  /** The cleaning fee and tourist tax every total carries. */
  charges?: StayCharges;
  /** A request, or a booking paid in advance (the card's last step is «Оплатить N ₽»). */
  bookingMode?: BookingMode;
  /** How much of the total is paid up front (prepaymentKopecks, the server's own rule). */
  prepayment?: Prepayment;
};

export type StaySelection = { checkIn: IsoDate | null; checkOut: IsoDate | null };
export const NO_STAY: StaySelection = { checkIn: null, checkOut: null };

export type StayRules = ReturnType<typeof stayRules>;

export function stayRules(a: Availability) {
  const busy = new Set<IsoDate>();
  for (const r of a.busy) for (let d = r.start; d < r.end; d = addDays(d, 1)) busy.add(d);
  // Today in Moscow, or the availability's own first day if the page was left open overnight.
  const today = [todayInMoscow(), a.from].sort()[1]!;
  // The same rules the server prices with (GET /api/quote, POST /api/bookings), from the availability.
  const pricing: PricingRules = {
    cabin: {
      pricePerNight: a.pricePerNight,
      minNights: a.minNights,
      weekendPricePerNight: a.weekendPricePerNight ?? null,
      weekendNights: a.weekendNights ?? WEEKEND_NIGHTS_DEFAULT,
      baseGuests: a.baseGuests ?? Number.MAX_SAFE_INTEGER,
      extraGuestPerNight: a.extraGuestPerNight ?? 0,
      ...(a.children ? { children: a.children } : {}),
      ...(a.pets ? { pets: a.pets } : {}),
    },
    seasons: a.seasons,
    datePrices: a.datePrices ?? [],
    discounts: a.discounts ?? [],
    extras: a.extras ?? [],
    charges: a.charges ?? NO_CHARGES,
  };
  /** The busy nights in order, for the first one after a check-in. */
  const busyInOrder = [...busy].sort();

  const isBusy = (night: IsoDate) => busy.has(night);
  /** A free night from today up to the horizon, on a weekday its season does not close to arrival. */
  const canCheckIn = (day: IsoDate) =>
    day >= today &&
    day < a.to &&
    !busy.has(day) &&
    !seasonOf(day, a.seasons)?.closedToArrival?.includes(isoWeekday(day));
  /** The minimum stay of a check-in: its season's, else the cabin's (as the server's quote says). */
  const minNights = (checkIn: IsoDate) => minNightsFrom(pricing, checkIn);
  /**
   * The latest departure from a check-in: the morning the next busy night starts, or the horizon;
   * never before the morning after it. (Kept per check-in with its other departures, below.)
   */
  const lastCheckOut = (checkIn: IsoDate): IsoDate => {
    const morning = addDays(checkIn, 1);
    const next = busyInOrder.find((night) => night >= morning);
    const end = next !== undefined && next < a.to ? next : a.to;
    return end > morning ? end : morning;
  };
  /** The longest stay from a check-in its season allows, or null. */
  const maxNights = (checkIn: IsoDate) => seasonOf(checkIn, a.seasons)?.maxNights ?? null;
  // The calendar asks this of every day it draws, at each tap: the departures a check-in allows are
  // worked out once, as the first and the last of them, and each day is compared with those.
  const departures = new Map<IsoDate, { first: IsoDate; last: IsoDate } | null>();
  const departuresFrom = (checkIn: IsoDate) => {
    let range = departures.get(checkIn);
    if (range === undefined) {
      const max = maxNights(checkIn);
      const free = lastCheckOut(checkIn);
      const longest = max === null ? null : addDays(checkIn, max);
      const last = longest !== null && longest < free ? longest : free;
      range = canCheckIn(checkIn) ? { first: addDays(checkIn, Math.max(1, minNights(checkIn))), last } : null;
      departures.set(checkIn, range);
    }
    return range;
  };
  const canCheckOut = (checkIn: IsoDate, day: IsoDate) => {
    const range = departuresFrom(checkIn);
    return (
      range !== null &&
      day >= range.first &&
      day <= range.last &&
      !seasonOf(day, a.seasons)?.closedToDeparture?.includes(isoWeekday(day))
    );
  };
  /** Whether the night before the check-in and the check-out's night are free, as the server reads them. */
  const neighbours = (checkIn: IsoDate, checkOut: IsoDate): Neighbours => ({
    before: !busy.has(addDays(checkIn, -1)),
    after: !busy.has(checkOut),
  });
  /** The extras on offer for a stay: an early check-in or a late check-out only beside a free night. */
  const offered = (checkIn: IsoDate, checkOut: IsoDate) =>
    pricing.extras.filter((e) => extraOffered(e, neighbours(checkIn, checkOut)));
  /**
   * The stay's price for these adults, children and pets with the mandatory extras and those
   * ticked (a promo code is priced by the server).
   */
  const quote = (
    checkIn: IsoDate,
    checkOut: IsoDate,
    guests = 1,
    extras: readonly number[] = [],
    family: { childrenAges?: readonly number[]; pets?: boolean } = {},
  ): Quote =>
    quoteStay(pricing, {
      checkIn,
      checkOut,
      guests,
      extras,
      today,
      neighbours: neighbours(checkIn, checkOut),
      ...family,
    });

  // The cabin's extras (the availability lists only this cabin's): the card ticks the optional ones.
  return {
    today,
    to: a.to,
    isBusy,
    canCheckIn,
    canCheckOut,
    minNights,
    maxNights,
    lastCheckOut,
    quote,
    offered,
    extras: pricing.extras,
    children: pricing.cabin.children ?? null,
    pets: a.pets?.allowed ? a.pets : null,
    bookingMode: a.bookingMode ?? 'request',
    prepayment: a.prepayment ?? null,
  };
}

/**
 * Whether a day can be tapped: while a check-out is awaited, a valid check-out, the check-in
 * itself (to undo it) or an earlier free day (a new check-in); otherwise any free day.
 */
export function selectable(rules: StayRules, sel: StaySelection, day: IsoDate): boolean {
  if (sel.checkIn && !sel.checkOut) {
    return day === sel.checkIn || rules.canCheckOut(sel.checkIn, day) || (day < sel.checkIn && rules.canCheckIn(day));
  }
  return rules.canCheckIn(day);
}

/**
 * A tap on a day: the first tap sets the check-in, the next a check-out after it (an earlier
 * day moves the check-in instead, the check-in again clears it); after a whole stay, a tap
 * starts a new one.
 */
export function pickDay(rules: StayRules, sel: StaySelection, day: IsoDate): StaySelection {
  if (sel.checkIn && !sel.checkOut) {
    if (day === sel.checkIn) return NO_STAY;
    if (rules.canCheckOut(sel.checkIn, day)) return { checkIn: sel.checkIn, checkOut: day };
  }
  return rules.canCheckIn(day) ? { checkIn: day, checkOut: null } : sel;
}

/** A stay picked before the availability changed (a feed, another tab) that no longer fits: dropped. */
export function stillFree(rules: StayRules, sel: StaySelection): StaySelection {
  if (!sel.checkIn) return NO_STAY;
  if (!rules.canCheckIn(sel.checkIn)) return NO_STAY;
  if (sel.checkOut && !rules.canCheckOut(sel.checkIn, sel.checkOut)) return { checkIn: sel.checkIn, checkOut: null };
  return sel;
}
