// Prices the way owners sell (docs/api.md «Pricing»): a night's price by date, weekend and
// season; guests beyond the ones the price includes; the largest discount that applies; a promo
// code; paid extras; then the cleaning fee and the tourist tax. The one function every place that
// shows a price calls (the booking card, search, the stored booking, «Заявки», the messages, the
// payment and its receipt, the prices sent to Avito). Plain code, no zod and no drizzle, light
// enough for the booking card. All amounts are whole roubles; the lines always sum to the total,
// and no line or total is ever negative where it should not be.
import { addDays, isoWeekday, nightsBetween, type IsoDate } from './dates.ts';
import { formatNights, formatPrice, formatYears, NBSP } from './format.ts';
import { chargeLines, nightsLines, type NightsPart, type PriceLine, type StayCharges } from './payment-options.ts';

/** Friday and Saturday nights: the ISO weekdays of the evening a night begins. */
export const WEEKEND_NIGHTS_DEFAULT = [5, 6] as const;

/** A cabin's own rates, outside seasons and single dates. */
export type CabinRates = {
  pricePerNight: number;
  /** The weekend nights' price; null: as on weekdays. */
  weekendPricePerNight: number | null;
  /** Which nights count as the weekend (ISO weekday of the night's date). */
  weekendNights: readonly number[];
  minNights: number;
  /** Guests the price includes; each further one pays extraGuestPerNight a night. */
  baseGuests: number;
  extraGuestPerNight: number;
  /** How children are priced; absent: every child as an adult. */
  children?: ChildrenRule;
  /** Whether pets may come and what they pay; absent: not allowed. */
  pets?: PetsRule;
};
export type SeasonRates = {
  start: IsoDate;
  end: IsoDate;
  pricePerNight: number;
  weekendPricePerNight?: number | null;
  minNights: number;
  /** ISO weekdays (1 Monday … 7 Sunday) no stay may begin on in this season. */
  closedToArrival?: readonly number[];
  /** ISO weekdays no stay may end on: the departure day's season's (seasonOf the day as a date). */
  closedToDeparture?: readonly number[];
  /** The longest stay that may begin in this season; null: no limit beyond the booking's own. */
  maxNights?: number | null;
};

/**
 * A cabin's children's prices by age: under `freeUnderAge` a child is free; under
 * `sharePercentUntilAge` it pays `sharePercent` % of extraGuestPerNight a night, whatever the
 * guests the price includes; older, it counts as an adult. All zero: every child as an adult.
 */
export type ChildrenRule = { freeUnderAge: number; sharePercentUntilAge: number; sharePercent: number };
export const CHILDREN_AS_ADULTS: ChildrenRule = { freeUnderAge: 0, sharePercentUntilAge: 0, sharePercent: 0 };
/** A child's age as the guest gives it: whole years, 0 to 17. */
export const CHILD_MAX_AGE = 17;

export const PETS_PER = ['stay', 'night'] as const;
export type PetsRule = { allowed: boolean; fee: number; per: (typeof PETS_PER)[number] };
export const NO_PETS: PetsRule = { allowed: false, fee: 0, per: 'stay' };

/** How a stay breaks a season's rule of days: arriving or leaving on a closed weekday, or too long. */
export type StayClosed = 'arrival' | 'departure' | 'maxNights';
/** What the guest reads when a stay breaks one: kept here, beside the rule, light for the card. */
export const CLOSED_MESSAGES: Record<StayClosed, string> = {
  arrival: 'В этот день недели в эти даты заезда нет. Выберите другую дату заезда',
  departure: 'В этот день недели в эти даты выезда нет. Выберите другую дату выезда',
  maxNights: 'Слишком много ночей: в эти даты действует максимальный срок проживания',
};
/** One night's own price (New Year's Eve): it overrides every other rule. */
export type DatePrice = { date: IsoDate; price: number };

export type Discount =
  | { kind: 'longStay'; minNights: number; percent: number }
  | { kind: 'earlyBooking'; minDaysAhead: number; percent: number }
  | { kind: 'lastMinute'; maxDaysAhead: number; percent: number };
export type DiscountKind = Discount['kind'];
export const DISCOUNT_LABELS: Record<DiscountKind, string> = {
  longStay: 'Скидка за долгое проживание',
  earlyBooking: 'Скидка за раннее бронирование',
  lastMinute: 'Скидка в последний момент',
};

export const EXTRA_PER = ['stay', 'night', 'guest', 'guestNight'] as const;
export type ExtraPer = (typeof EXTRA_PER)[number];
export const EXTRA_PER_LABELS: Record<ExtraPer, string> = {
  stay: 'за проживание',
  night: 'за ночь',
  guest: 'за гостя',
  guestNight: 'за гостя в ночь',
};
/**
 * What an extra is beside its price: an ordinary one (the баня), or an early check-in or a late
 * check-out, offered only when the night before the check-in, or the check-out's night, is free.
 */
export const EXTRA_KINDS = ['ordinary', 'earlyCheckIn', 'lateCheckOut'] as const;
export type ExtraKind = (typeof EXTRA_KINDS)[number];
export type EarlyLate = Exclude<ExtraKind, 'ordinary'>;
export const EXTRA_KIND_LABELS: Record<ExtraKind, string> = {
  ordinary: 'Обычная услуга',
  earlyCheckIn: 'Ранний заезд',
  lateCheckOut: 'Поздний выезд',
};
/** Why an early check-in or a late check-out is not offered for a stay: its neighbouring night is busy. */
export const EARLY_LATE_MESSAGES: Record<EarlyLate, string> = {
  earlyCheckIn: 'Ранний заезд недоступен: накануне домик занят',
  lateCheckOut: 'Поздний выезд недоступен: в день выезда домик занят',
};
/** A paid extra: the баня, a transfer, breakfast. `cabinIds` null: every cabin. */
export type Extra = {
  id: number;
  name: string;
  price: number;
  per: ExtraPer;
  mandatory: boolean;
  cabinIds: number[] | null;
  /** Absent: ordinary. */
  kind?: ExtraKind;
  /** The hour an early check-in or late check-out gives ('10:00'); null for an ordinary one. */
  time?: string | null;
};
/**
 * Whether the night before the check-in and the check-out's night are free in the cabin (no
 * booking, hold, block, imported or Avito night): the callers read them, the pricing stays pure.
 */
export type Neighbours = { before: boolean; after: boolean };
/** An extra left out of a stay's offer, and why (EARLY_LATE_MESSAGES). */
export type Withheld = { id: number; reason: string };

/** A promo code that applies to this stay (checked by the server): a percentage or an amount off the stay. */
export type PromoTerms = { code: string; percent: number | null; amount: number | null };

/** Everything that prices one cabin's stays. */
export type PricingRules = {
  cabin: CabinRates;
  seasons: readonly SeasonRates[];
  datePrices: readonly DatePrice[];
  discounts: readonly Discount[];
  /** The extras on offer for this cabin (others are left out by extrasFor). */
  extras: readonly Extra[];
  charges: StayCharges;
};

export type StayAsk = {
  checkIn: IsoDate;
  checkOut: IsoDate;
  /** The adults; the children come in childrenAges. */
  guests: number;
  /** Each child's age in whole years. */
  childrenAges?: readonly number[];
  /** Whether pets come along (refused before pricing where the cabin does not allow them). */
  pets?: boolean;
  /** The optional extras the guest ticked (mandatory ones are always in). */
  extras?: readonly number[];
  promo?: PromoTerms | null;
  /** Today in Moscow: early booking and last minute count from it. */
  today: IsoDate;
  /**
   * Whether the neighbouring nights are free; absent (search, Avito's prices): not known, so no
   * early check-in or late check-out is offered or priced.
   */
  neighbours?: Neighbours;
};

/** Consecutive nights at one price, in order ([start, end) each). */
export type { NightsPart };

export type Quote = {
  nights: number;
  /** What the guest pays: the sum of `lines`, never negative. */
  total: number;
  lines: PriceLine[];
  /** The minimum stay that applies: the check-in night's season's, else the cabin's. */
  minNights: number;
  /** The longest stay the check-in night's season allows, or null. */
  maxNights: number | null;
  /** The season's rule of days this stay breaks, or null (stayClosed). */
  closed: StayClosed | null;
  parts: NightsPart[];
  /** The extras priced in (mandatory and ticked), by id. */
  extras: number[];
  /** The early check-ins and late check-outs not offered for this stay, with why (when neighbours are known). */
  withheld: Withheld[];
};

/** The extras a cabin offers. */
export const extrasFor = (extras: readonly Extra[], cabinId: number) =>
  extras.filter((e) => e.cabinIds === null || e.cabinIds.includes(cabinId));

/**
 * Whether an extra is on offer for a stay with these neighbouring nights: an ordinary one always;
 * an early check-in when the night before is free, a late check-out when the check-out's night is.
 */
export function extraOffered(e: Pick<Extra, 'kind'>, neighbours: Neighbours | undefined): boolean {
  const kind = e.kind ?? 'ordinary';
  return kind === 'ordinary' || (kind === 'earlyCheckIn' ? neighbours?.before : neighbours?.after) === true;
}

/** The hours of the early check-in and late check-out among a stay's extras, or null: what the booking keeps. */
export function stayTimes(extras: readonly Extra[], ids: readonly number[]) {
  const hour = (kind: EarlyLate) => extras.find((e) => e.kind === kind && ids.includes(e.id))?.time ?? null;
  return { earlyCheckIn: hour('earlyCheckIn'), lateCheckOut: hour('lateCheckOut') };
}

/** «Ранний заезд с 10:00, поздний выезд до 18:00» of a booking, or '' without either: for the owner's card. */
export function stayHoursText(t: { earlyCheckIn?: string | null; lateCheckOut?: string | null }): string {
  const early = t.earlyCheckIn ? `ранний заезд с ${t.earlyCheckIn}` : '';
  const late = t.lateCheckOut ? `поздний выезд до ${t.lateCheckOut}` : '';
  const text = [early, late].filter(Boolean).join(', ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The season a night falls in, if any. */
export const seasonOf = (night: IsoDate, seasons: readonly SeasonRates[]) =>
  seasons.find((s) => s.start <= night && night < s.end);

/** The minimum stay from a check-in: its season's, else the cabin's. */
export const minNightsFrom = (rules: Pick<PricingRules, 'cabin' | 'seasons'>, checkIn: IsoDate): number =>
  seasonOf(checkIn, rules.seasons)?.minNights ?? rules.cabin.minNights;

/** One night's price: its own date's, else its season's (weekend or weekday), else the cabin's. */
export function nightPrice(
  night: IsoDate,
  rules: Pick<PricingRules, 'cabin' | 'seasons' | 'datePrices'>,
  dates?: ReadonlyMap<IsoDate, number>,
): number {
  const own = dates ? dates.get(night) : rules.datePrices.find((d) => d.date === night)?.price;
  if (own !== undefined) return own;
  const weekend = rules.cabin.weekendNights.includes(isoWeekday(night));
  const season = seasonOf(night, rules.seasons);
  if (season) return (weekend ? season.weekendPricePerNight : null) ?? season.pricePerNight;
  return (weekend ? rules.cabin.weekendPricePerNight : null) ?? rules.cabin.pricePerNight;
}

/**
 * The nights of a stay, grouped into runs at one price. Night by night when weekends or single
 * dates can change the price; otherwise from one season edge to the next, as search prices every
 * cabin for stays of up to 60 nights.
 */
export function nightParts(
  rules: Pick<PricingRules, 'cabin' | 'seasons' | 'datePrices'>,
  checkIn: IsoDate,
  checkOut: IsoDate,
): NightsPart[] {
  const parts: NightsPart[] = [];
  const push = (start: IsoDate, end: IsoDate, price: number) => {
    const last = parts.at(-1);
    if (last && last.pricePerNight === price && last.end === start) {
      last.nights += nightsBetween(start, end);
      last.end = end;
    } else parts.push({ start, end, nights: nightsBetween(start, end), pricePerNight: price });
  };
  const touching = rules.seasons.filter((s) => s.start < checkOut && checkIn < s.end);
  const dates = rules.datePrices.filter((d) => d.date >= checkIn && d.date < checkOut);
  const byDay =
    dates.length > 0 ||
    rules.cabin.weekendPricePerNight !== null ||
    touching.some((s) => s.weekendPricePerNight != null);
  if (byDay) {
    const own = new Map(dates.map((d) => [d.date, d.price]));
    const local = { ...rules, seasons: touching };
    for (let night = checkIn; night < checkOut; night = addDays(night, 1))
      push(night, addDays(night, 1), nightPrice(night, local, own));
    return parts;
  }
  for (let night = checkIn; night < checkOut; ) {
    // The nearest season edge after this night (a start ahead, else the end), or the check-out.
    const next = touching.reduce((edge, s) => {
      const e = s.start > night ? s.start : s.end;
      return e > night && e < edge ? e : edge;
    }, checkOut);
    push(night, next, seasonOf(night, touching)?.pricePerNight ?? rules.cabin.pricePerNight);
    night = next;
  }
  return parts;
}

const percentOf = (amount: number, percent: number) => Math.round((amount * percent) / 100);
const percentText = (p: number) => `${String(p).replace('.', ',')}${NBSP}%`;

/** The largest discount this stay earns, or none: one rule wins, never two. */
export function bestDiscount(discounts: readonly Discount[], nights: number, daysAhead: number): Discount | null {
  let best: Discount | null = null;
  for (const d of discounts) {
    const applies =
      d.kind === 'longStay'
        ? nights >= d.minNights
        : d.kind === 'earlyBooking'
          ? daysAhead >= d.minDaysAhead
          : daysAhead <= d.maxDaysAhead;
    if (applies && d.percent > 0 && (!best || d.percent > best.percent)) best = d;
  }
  return best;
}

/** What an extra costs for this stay. */
export function extraAmount(e: Pick<Extra, 'price' | 'per'>, nights: number, guests: number): number {
  return e.per === 'stay'
    ? e.price
    : e.per === 'night'
      ? e.price * nights
      : e.per === 'guest'
        ? e.price * guests
        : e.price * guests * nights;
}

const EXTRA_UNIT: Record<ExtraPer, (nights: number, guests: number) => string> = {
  stay: () => '',
  night: (n) => ` × ${formatNights(n)}`,
  guest: (_, g) => ` × ${g} гост.`,
  guestNight: (n, g) => ` × ${g} гост. × ${formatNights(n)}`,
};

/** Whether a cabin takes these adults and children: every child counts toward its maximum. */
export const takesGuests = (maxGuests: number, guests: number, childrenAges: readonly number[] = []) =>
  guests + childrenAges.length <= maxGuests;

/** The children of a stay by how they pay: free, at a share of an extra guest's price, or as adults. */
export function childrenBands(rule: ChildrenRule | undefined, ages: readonly number[] = []) {
  const r = rule ?? CHILDREN_AS_ADULTS;
  let free = 0;
  let shared = 0;
  for (const age of ages) {
    if (age < r.freeUnderAge) free++;
    else if (age < r.sharePercentUntilAge) shared++;
  }
  return { free, shared, adults: ages.length - free - shared };
}

/** A child's price a night at the cabin's share: a whole rouble. */
export const childNightPrice = (cabin: Pick<CabinRates, 'extraGuestPerNight' | 'children'>) =>
  percentOf(cabin.extraGuestPerNight, cabin.children?.sharePercent ?? 0);

/** What pets pay for this stay where they may come. */
export const petsAmount = (pets: PetsRule, nights: number) => (pets.per === 'night' ? pets.fee * nights : pets.fee);

/**
 * Whether the stay breaks its seasons' rule of days: the check-in's weekday closed to arrival in
 * its season, the check-out's closed to departure in the season of that day, or more nights than
 * the check-in's season allows.
 */
export function stayClosed(seasons: readonly SeasonRates[], checkIn: IsoDate, checkOut: IsoDate): StayClosed | null {
  const arrival = seasonOf(checkIn, seasons);
  if (arrival?.closedToArrival?.includes(isoWeekday(checkIn))) return 'arrival';
  if (seasonOf(checkOut, seasons)?.closedToDeparture?.includes(isoWeekday(checkOut))) return 'departure';
  if (arrival?.maxNights && nightsBetween(checkIn, checkOut) > arrival.maxNights) return 'maxNights';
  return null;
}

/**
 * A stay's price, as every place shows it: the nights at their prices; the guests beyond the ones
 * the price includes; the largest discount; the promo code; the extras (mandatory ones and those
 * ticked); the cleaning fee; the tourist tax on the accommodation's price after discounts. Whole
 * roubles; the lines sum to the total; a discount or a code never takes the stay below zero.
 */
export function quoteStay(rules: PricingRules, ask: StayAsk): Quote {
  const parts = nightParts(rules, ask.checkIn, ask.checkOut);
  const nights = parts.reduce((n, p) => n + p.nights, 0);
  const lines: PriceLine[] = nightsLines(parts);

  const children = rules.cabin.children ?? CHILDREN_AS_ADULTS;
  const bands = childrenBands(children, ask.childrenAges);
  // Older children count as adults: for the guests the price includes and for extras by the guest.
  const guests = ask.guests + bands.adults;
  const extraGuests = Math.max(0, guests - rules.cabin.baseGuests);
  if (extraGuests > 0 && rules.cabin.extraGuestPerNight > 0 && nights > 0) {
    lines.push({
      kind: 'extraGuests',
      label: `Дополнительные гости: ${extraGuests} × ${formatPrice(rules.cabin.extraGuestPerNight)} × ${formatNights(nights)}`,
      amount: extraGuests * rules.cabin.extraGuestPerNight * nights,
    });
  }
  if (bands.free > 0)
    lines.push({
      kind: 'children',
      label: `Дети до ${formatYears(children.freeUnderAge)}: ${bands.free}`,
      amount: 0,
    });
  if (bands.shared > 0 && nights > 0) {
    const each = childNightPrice(rules.cabin);
    lines.push({
      kind: 'children',
      label: `Дети до ${formatYears(children.sharePercentUntilAge)}: ${bands.shared} × ${formatPrice(each)} × ${formatNights(nights)}`,
      amount: bands.shared * each * nights,
    });
  }
  const lodging = () => lines.reduce((s, l) => s + l.amount, 0);

  const discount = bestDiscount(rules.discounts, nights, nightsBetween(ask.today, ask.checkIn));
  if (discount) {
    const amount = Math.min(percentOf(lodging(), discount.percent), lodging());
    if (amount > 0)
      lines.push({
        kind: 'discount',
        label: `${DISCOUNT_LABELS[discount.kind]} ${percentText(discount.percent)}`,
        amount: -amount,
      });
  }
  if (ask.promo) {
    const left = lodging();
    const off = Math.min(
      ask.promo.percent !== null ? percentOf(left, ask.promo.percent) : (ask.promo.amount ?? 0),
      left,
    );
    if (off > 0)
      lines.push({
        kind: 'promo',
        label: `Промокод ${ask.promo.code}${ask.promo.percent !== null ? ` ${percentText(ask.promo.percent)}` : ''}`,
        amount: -off,
      });
  }
  const accommodation = lodging();

  const ticked = new Set(ask.extras ?? []);
  const offered = rules.extras.filter((e) => extraOffered(e, ask.neighbours));
  const withheld = ask.neighbours
    ? rules.extras.flatMap((e) =>
        extraOffered(e, ask.neighbours) ? [] : [{ id: e.id, reason: EARLY_LATE_MESSAGES[e.kind as EarlyLate] }],
      )
    : [];
  const chosen = offered.filter((e) => e.mandatory || ticked.has(e.id));
  for (const e of chosen) {
    lines.push({
      kind: 'extra',
      label: `${e.name}${EXTRA_UNIT[e.per](nights, guests)}`,
      amount: extraAmount(e, nights, guests),
    });
  }
  const pets = rules.cabin.pets;
  if (ask.pets && pets?.allowed && pets.fee > 0)
    lines.push({
      kind: 'pets',
      label: `Проживание с животными${pets.per === 'night' ? ` × ${formatNights(nights)}` : ''}`,
      amount: petsAmount(pets, nights),
    });
  lines.push(...chargeLines(accommodation, nights, rules.charges));
  const season = seasonOf(ask.checkIn, rules.seasons);

  return {
    nights,
    total: lines.reduce((s, l) => s + l.amount, 0),
    lines,
    minNights: minNightsFrom(rules, ask.checkIn),
    maxNights: season?.maxNights ?? null,
    closed: stayClosed(rules.seasons, ask.checkIn, ask.checkOut),
    parts,
    extras: chosen.map((e) => e.id),
    withheld,
  };
}

/**
 * Every field of the per-cabin rules that quoteStay reads, by type: the compiler asks for a field
 * added to CabinRates, SeasonRates or DatePrice to be named here too, so rule sets that differ in
 * any of them are never taken for one.
 */
const fieldsOf = <T>(shape: Record<keyof T, true>) => Object.keys(shape) as (keyof T)[];
const CABIN_FIELDS = fieldsOf<CabinRates>({
  pricePerNight: true,
  weekendPricePerNight: true,
  weekendNights: true,
  minNights: true,
  baseGuests: true,
  extraGuestPerNight: true,
  children: true,
  pets: true,
});
const SEASON_FIELDS = fieldsOf<SeasonRates>({
  start: true,
  end: true,
  pricePerNight: true,
  weekendPricePerNight: true,
  minNights: true,
  closedToArrival: true,
  closedToDeparture: true,
  maxNights: true,
});
const DATE_FIELDS = fieldsOf<DatePrice>({ date: true, price: true });

/** A tree of maps, one level a value: a path from the root is a sequence of values. */
type Level = Map<unknown, Level>;
/** The level below `level` for `value`, made if new. */
function below(level: Level, value: unknown): Level {
  let next = level.get(value);
  if (!next) level.set(value, (next = new Map()));
  return next;
}

/**
 * The level below `level` for a field's value: a list after its length, item by item; an object
 * (the children's and pets' rules) its fields in their order, after their number; else the value.
 */
function byValue(level: Level, value: unknown): Level {
  if (Array.isArray(value)) {
    level = below(level, value.length);
    for (let j = 0; j < value.length; j++) level = below(level, value[j]);
    return level;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    level = below(level, entries.length);
    for (const [k, v] of entries) level = below(below(level, k), v);
    return level;
  }
  return below(level, value);
}

/**
 * Numbers rule sets so that equal ones get one number: their own rates, seasons and single dates
 * by value (each list after its length, so no two sets make one sequence); the discounts, each
 * extra and the charges by identity (the same objects for every cabin pricingRules reads at once;
 * other objects with equal values only get another number). Walking the tree of maps makes no
 * strings and almost no garbage, for 1,500 cabins a search.
 */
function ruleSetNumbers(): (rules: PricingRules) => number {
  const root: Level = new Map();
  const numbers = new Map<Level, number>();
  return (rules) => {
    let level = below(below(root, rules.discounts), rules.charges);
    level = below(level, rules.extras.length);
    for (let i = 0; i < rules.extras.length; i++) level = below(level, rules.extras[i]);
    for (let i = 0; i < CABIN_FIELDS.length; i++) level = byValue(level, rules.cabin[CABIN_FIELDS[i]!]);
    level = below(level, rules.seasons.length);
    for (const s of rules.seasons) for (const f of SEASON_FIELDS) level = byValue(level, s[f]);
    level = below(level, rules.datePrices.length);
    for (const d of rules.datePrices) for (const f of DATE_FIELDS) level = below(level, d[f]);
    let n = numbers.get(level);
    if (n === undefined) numbers.set(level, (n = numbers.size));
    return n;
  };
}

/**
 * quoteStay for many cabins and one guest's ask (search: every cabin for the same dates, and the
 * nearby dates of the busy ones): `quotes(rules)` prices one cabin's stays, and cabins whose
 * rules are equal get the one quote of a stay, computed once. At 1,500 cabins set alike that is a
 * few quotes instead of 1,500. The quotes are shared between cabins: read them, never change them.
 */
export function quoteMany(
  ask: Omit<StayAsk, 'checkIn' | 'checkOut'>,
): (rules: PricingRules) => (checkIn: IsoDate, checkOut: IsoDate) => Quote {
  const numberOf = ruleSetNumbers();
  /** A stay's quotes by check-in, check-out and the number of the rule set. */
  const quotes = new Map<IsoDate, Map<IsoDate, Quote[]>>();
  return (rules) => {
    const n = numberOf(rules);
    return (checkIn, checkOut) => {
      let byCheckOut = quotes.get(checkIn);
      if (!byCheckOut) quotes.set(checkIn, (byCheckOut = new Map()));
      let byRules = byCheckOut.get(checkOut);
      if (!byRules) byCheckOut.set(checkOut, (byRules = []));
      return (byRules[n] ??= quoteStay(rules, { ...ask, checkIn, checkOut }));
    };
  };
}
