import { and, asc, eq, gt, gte, inArray, lt, type SQL } from 'drizzle-orm';
import type { BatchResponse } from 'drizzle-orm/batch';
import { addDays, type IsoDate } from '../../schema/dates.ts';
import type { PromoInput } from '../../schema/pricing-input.ts';
import { promoCodeKey } from '../../schema/promo-code.ts';
import {
  CHILDREN_AS_ADULTS,
  extrasFor,
  NO_PETS,
  WEEKEND_NIGHTS_DEFAULT,
  type Discount,
  type Extra,
  type ExtraKind,
  type PricingRules,
  type PromoTerms,
} from '../../schema/pricing.ts';
import { MSG } from '../../schema/messages.ts';
import {
  cabinCalendars,
  cabins,
  datePrices,
  extras,
  promoCodes,
  seasons,
  siteState,
  type Cabin,
} from '../../schema/tables.ts';
import { getDb } from '../lib/db.ts';
import { groupBy } from '../lib/group-by.ts';
import type { DatabasePort } from '../platform/ports.ts';
import type { StayCharges } from '../../schema/payment-options.ts';
import { resolveSettings } from '../../schema/settings.ts';
import { chargesOf, settingsQuery, storedSettingsFrom } from './settings.ts';

type DbEnv = { DB: DatabasePort };
const DISCOUNTS_KEY = 'pricing.discounts';

export async function listDiscounts(env: DbEnv): Promise<Discount[]> {
  return discountsFrom(await discountsQuery(env).get());
}

const discountsQuery = (env: DbEnv, where?: SQL) =>
  getDb(env)
    .select()
    .from(siteState)
    .where(and(eq(siteState.key, DISCOUNTS_KEY), where));
function discountsFrom(row: { value: string } | undefined): Discount[] {
  try {
    return row ? (JSON.parse(row.value) as Discount[]) : [];
  } catch {
    return [];
  }
}

export async function listExtras(env: DbEnv): Promise<Extra[]> {
  return extrasFrom(await extrasQuery(env));
}

const extrasQuery = (env: DbEnv, where?: SQL) =>
  getDb(env).select().from(extras).where(where).orderBy(asc(extras.position), asc(extras.id));
const extrasFrom = (rows: (typeof extras.$inferSelect)[]): Extra[] =>
  rows.map(({ position: _p, per, kind, ...e }) => ({
    ...e,
    per: per as Extra['per'],
    kind: kind as ExtraKind,
    cabinIds: e.cabinIds ?? null,
  }));

/**
 * Sets the discounts and the extras as whole lists, in one batch: an extra sent with its id keeps
 * it (bookings name their extras by id), new ones get one, those left out go.
 */
export async function savePricing(
  env: DbEnv,
  body: { discounts: Discount[]; extras: (Omit<Extra, 'id'> & { id?: number })[] },
): Promise<{ ok: true } | { ok: false; error: string }> {
  const db = getDb(env);
  const current = new Set((await db.select({ id: extras.id }).from(extras)).map((r) => r.id));
  if (body.extras.some((e) => e.id !== undefined && !current.has(e.id))) return { ok: false, error: MSG.extraNotFound };
  const kept = new Set(body.extras.flatMap((e) => (e.id === undefined ? [] : [e.id])));
  const gone = [...current].filter((id) => !kept.has(id));
  const statements = [
    db
      .insert(siteState)
      .values({ key: DISCOUNTS_KEY, value: JSON.stringify(body.discounts) })
      .onConflictDoUpdate({ target: siteState.key, set: { value: JSON.stringify(body.discounts) } }),
    ...(gone.length ? [db.delete(extras).where(inArray(extras.id, gone))] : []),
    ...body.extras.map(({ id, ...e }, position) =>
      id === undefined
        ? db.insert(extras).values({ ...e, position })
        : db
            .update(extras)
            .set({ ...e, position })
            .where(eq(extras.id, id)),
    ),
  ];
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  return { ok: true };
}

export async function listDatePrices(env: DbEnv, cabinId: number) {
  return getDb(env)
    .select({ date: datePrices.date, price: datePrices.price })
    .from(datePrices)
    .where(eq(datePrices.cabinId, cabinId))
    .orderBy(asc(datePrices.date));
}

/** Replaces a cabin's single nights' prices from `from` on; past ones are left as they were. */
export async function replaceDatePrices(
  env: DbEnv,
  cabinId: number,
  prices: { date: IsoDate; price: number }[],
  from: IsoDate,
) {
  const db = getDb(env);
  const statements = [
    db.delete(datePrices).where(and(eq(datePrices.cabinId, cabinId), gte(datePrices.date, from))),
    ...prices.map((p) => db.insert(datePrices).values({ cabinId, ...p })),
  ];
  await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
}

export type CabinPriceFields = Pick<
  Cabin,
  | 'id'
  | 'pricePerNight'
  | 'weekendPricePerNight'
  | 'weekendNights'
  | 'baseGuests'
  | 'extraGuestPerNight'
  | 'maxGuests'
  | 'children'
  | 'pets'
>;

/** The columns of a cabin that its rules take (cabinRates), for a select of cabins to be priced. */
export const cabinPriceColumns = {
  id: cabins.id,
  pricePerNight: cabins.pricePerNight,
  weekendPricePerNight: cabins.weekendPricePerNight,
  weekendNights: cabins.weekendNights,
  baseGuests: cabins.baseGuests,
  extraGuestPerNight: cabins.extraGuestPerNight,
  maxGuests: cabins.maxGuests,
  children: cabins.children,
  pets: cabins.pets,
};

/**
 * The pricing rules of the given cabins (or every cabin) for stays touching [from, to): one query
 * per kind of data (cabins, seasons, single dates, minimum stays, discounts, extras, settings),
 * whatever the number of cabins, for search as for one booking, all in one batch.
 */
export async function pricingRules(
  env: DbEnv,
  from: IsoDate,
  to: IsoDate,
  cabinIds?: number[],
): Promise<Map<number, PricingRules>> {
  const [cabinRows, ...rest] = await getDb(env).batch([
    getDb(env)
      .select(cabinPriceColumns)
      .from(cabins)
      .where(cabinIds ? inArray(cabins.id, cabinIds) : undefined),
    ...pricingDataQueries(env),
    ...pricingRangeQueries(env, from, to, cabinIds),
  ]);
  const [minStays, discountRow, extraRows, settingRows, seasonRows, dateRows] = rest;
  const rulesOf = rulesFrom(pricingDataFrom([minStays, discountRow, extraRows, settingRows]), [seasonRows, dateRows]);
  return new Map(cabinRows.map((c) => [c.id, rulesOf(c)]));
}

/**
 * pricingRules for cabin rows the caller reads itself: everything else is read here, in one
 * batch, then each row's rules are made in memory.
 */
export async function pricingRulesOf(
  env: DbEnv,
  from: IsoDate,
  to: IsoDate,
  cabinIds?: number[],
): Promise<(cabin: CabinPriceFields) => PricingRules> {
  const [minStays, discountRow, extraRows, settingRows, seasonRows, dateRows] = await getDb(env).batch([
    ...pricingDataQueries(env),
    ...pricingRangeQueries(env, from, to, cabinIds),
  ]);
  return rulesFrom(pricingDataFrom([minStays, discountRow, extraRows, settingRows]), [seasonRows, dateRows]);
}

/**
 * The rules' data that do not depend on the dates (minimum stays, discounts, extras, settings),
 * not yet read: for a batch. `where` is added to each (search keeps them while the data are
 * unchanged: worker/queries/kept-reads.ts).
 */
export function pricingDataQueries(env: DbEnv, where?: SQL) {
  const db = getDb(env);
  return [
    db
      .select({ cabinId: cabinCalendars.cabinId, minNights: cabinCalendars.minNights })
      .from(cabinCalendars)
      .where(where),
    discountsQuery(env, where),
    extrasQuery(env, where),
    settingsQuery(env, where),
  ] as const;
}

/** The rules' data for stays touching [from, to) (seasons, single dates), not yet read: for a batch. */
export function pricingRangeQueries(env: DbEnv, from: IsoDate, to: IsoDate, cabinIds?: number[]) {
  const db = getDb(env);
  const only = <C extends typeof seasons.cabinId | typeof datePrices.cabinId>(column: C) =>
    cabinIds ? inArray(column, cabinIds) : undefined;
  return [
    db
      .select()
      .from(seasons)
      .where(and(only(seasons.cabinId), lt(seasons.start, to), gt(seasons.end, from))),
    db
      .select()
      .from(datePrices)
      .where(and(only(datePrices.cabinId), gte(datePrices.date, from), lt(datePrices.date, to))),
  ] as const;
}

/**
 * What pricingDataQueries read, shaped once: kept as it is while the data are unchanged (search).
 * `plainRules`: a cabin's rules when no season or single date touches the stay's window, which
 * then depend on nothing else, so they are made once a cabin for as long as these data are kept,
 * and cabins whose rules are equal get the same object (`plainBySignature`): at 1,500 cabins
 * priced alike, a search then prices a handful of rule objects, not 1,500.
 */
export type PricingData = {
  minOf: Map<number, number>;
  discounts: Discount[];
  allExtras: Extra[];
  charges: StayCharges;
  plainRules: WeakMap<CabinPriceFields, PricingRules>;
  plainBySignature: Map<string, PricingRules>;
};

export function pricingDataFrom([minStays, discountRows, extraRows, settingRows]: BatchResponse<
  ReturnType<typeof pricingDataQueries>
>): PricingData {
  return {
    minOf: new Map(minStays.map((m) => [m.cabinId, m.minNights])),
    discounts: discountsFrom(discountRows[0]),
    allExtras: extrasFrom(extraRows),
    charges: chargesOf(resolveSettings(storedSettingsFrom(settingRows))),
    plainRules: new WeakMap(),
    plainBySignature: new Map(),
  };
}

/** Each cabin's rules, made in memory from the data and the rows of pricingRangeQueries. */
export function rulesFrom(
  data: PricingData,
  [seasonRows, dateRows]: BatchResponse<ReturnType<typeof pricingRangeQueries>>,
): (cabin: CabinPriceFields) => PricingRules {
  const { minOf, discounts, allExtras, charges, plainRules, plainBySignature } = data;
  // Grouped once by cabin: at 1,500 cabins a filter per cabin would read every row 1,500 times.
  const seasonsOf = groupBy(seasonRows, (r) => r.cabinId);
  const datesOf = groupBy(dateRows, (r) => r.cabinId);
  const everywhere = allExtras.filter((e) => e.cabinIds === null);
  const someCabins = allExtras.filter((e) => e.cabinIds !== null);
  const make = (
    c: CabinPriceFields,
    seasons: PricingRules['seasons'],
    datePrices: PricingRules['datePrices'],
  ): PricingRules => ({
    cabin: cabinRates(c, minOf.get(c.id) ?? 1),
    seasons,
    datePrices,
    discounts,
    extras: someCabins.length ? extrasFor(allExtras, c.id) : everywhere,
    charges,
  });
  return (c) => {
    const seasons = seasonsOf.get(c.id);
    const datePrices = datesOf.get(c.id);
    if (seasons || datePrices) return make(c, seasons ?? [], datePrices ?? []);
    let rules = plainRules.get(c);
    if (!rules) {
      const made = make(c, [], []);
      // Everything else in them is the same for every cabin (these data's discounts and charges).
      const signature = JSON.stringify([made.cabin, made.extras.map((e) => e.id)]);
      rules = plainBySignature.get(signature);
      if (!rules) plainBySignature.set(signature, (rules = made));
      plainRules.set(c, rules);
    }
    return rules;
  };
}

/** A cabin's row as its rates: the guests the price includes are every guest it takes unless the owner said fewer. */
export const cabinRates = (c: CabinPriceFields, minNights: number): PricingRules['cabin'] => ({
  pricePerNight: c.pricePerNight,
  weekendPricePerNight: c.weekendPricePerNight ?? null,
  weekendNights: c.weekendNights ?? WEEKEND_NIGHTS_DEFAULT,
  minNights,
  baseGuests: Math.min(c.baseGuests ?? c.maxGuests, c.maxGuests),
  extraGuestPerNight: c.extraGuestPerNight ?? 0,
  children: c.children ?? CHILDREN_AS_ADULTS,
  pets: c.pets ?? NO_PETS,
});

// ——— Promo codes.

export async function listPromoCodes(env: DbEnv) {
  return getDb(env).select().from(promoCodes).orderBy(asc(promoCodes.code));
}

/** Sets the whole list; a code that stays keeps its uses. */
export async function replacePromoCodes(env: DbEnv, codes: PromoInput[]) {
  const db = getDb(env);
  const current = await listPromoCodes(env);
  const wanted = new Set(codes.map((c) => c.code));
  const gone = current.filter((c) => !wanted.has(c.code)).map((c) => c.code);
  const statements = [
    ...(gone.length ? [db.delete(promoCodes).where(inArray(promoCodes.code, gone))] : []),
    ...codes.map((c) =>
      db
        .insert(promoCodes)
        .values(c)
        .onConflictDoUpdate({ target: promoCodes.code, set: { ...c, code: undefined } }),
    ),
  ];
  if (statements.length) await db.batch(statements as [(typeof statements)[number], ...typeof statements]);
  return listPromoCodes(env);
}

/**
 * Whether a code applies to this stay booked today, and on what terms; else why not, in the
 * guest's words. Its uses are checked here; one is counted when a booking is held for payment or confirmed
 * (worker/transitions/promo.ts).
 */
export async function checkPromo(
  env: DbEnv,
  typed: string,
  stay: { checkIn: IsoDate; checkOut: IsoDate; today: IsoDate },
): Promise<{ ok: true; terms: PromoTerms } | { ok: false; error: string }> {
  const row = await findPromo(env, typed);
  if (!row) return { ok: false, error: MSG.promoNotFound };
  if (row.validFrom && stay.today < row.validFrom) return { ok: false, error: MSG.promoNotYet };
  if (row.validTo && stay.today > row.validTo) return { ok: false, error: MSG.promoExpired };
  if (row.maxUses !== null && row.uses >= row.maxUses) return { ok: false, error: MSG.promoUsedUp };
  // Every night of the stay within the code's stay dates (stayTo: the last night it covers).
  if ((row.stayFrom && stay.checkIn < row.stayFrom) || (row.stayTo && stay.checkOut > addDays(row.stayTo, 1)))
    return { ok: false, error: MSG.promoNotForDates };
  return { ok: true, terms: { code: row.code, percent: row.percent, amount: row.amount } };
}

/**
 * The owner's code a guest typed, in any case, with look-alike letters of the other alphabet or on
 * the other keyboard layout (promoCodeKey). No column holds the key: the list is at most 200 codes
 * (PUT /admin/promo-codes), so it is read whole and matched here.
 */
async function findPromo(env: DbEnv, typed: string) {
  const key = promoCodeKey(typed);
  if (!key) return undefined;
  return (await listPromoCodes(env)).find((row) => promoCodeKey(row.code) === key);
}
