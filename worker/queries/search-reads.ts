import { asc, type SQL } from 'drizzle-orm';
import type { IsoDate } from '../../schema/dates.ts';
import type { PricingRules } from '../../schema/pricing.ts';
import { cabins } from '../../schema/tables.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { staysByStatusQuery } from './bookings.ts';
import { openCleaningsQuery } from './today.ts';
import { busyRangeQueries, busyRangesFrom, type SourcedRange } from './calendar.ts';
import { dataStampQuery, keptPerDatabase } from './kept-reads.ts';
import {
  cabinPriceColumns,
  pricingDataFrom,
  pricingDataQueries,
  pricingRangeQueries,
  rulesFrom,
  type CabinPriceFields,
  type PricingData,
} from './pricing.ts';

type DbEnv = { DB: DatabasePort };

/** A cabin as search reads it: its name, whether it is shown, its price columns. */
export type CatalogueCabin = CabinPriceFields & { name: string; active: boolean };
/** Every cabin (inactive ones too, by id) and the pricing data that do not depend on dates. */
export type Catalogue = { cabins: CatalogueCabin[]; pricing: PricingData };

/** Kept while the data are unchanged: at 1,500 cabins reading them was most of a search's time. */
const keptCatalogue = keptPerDatabase<Catalogue>();

const catalogueQueries = (env: DbEnv, changed: SQL | undefined) =>
  [
    getDb(env)
      .select({ ...cabinPriceColumns, name: cabins.name, active: cabins.active })
      .from(cabins)
      .where(changed)
      .orderBy(asc(cabins.id)),
    ...pricingDataQueries(env, changed),
  ] as const;

/**
 * Everything a search for stays touching [from, to) reads, in one round trip (one batch): the
 * catalogue (kept while the data are unchanged), the seasons and single dates of the window, and
 * every source of busy nights in it.
 */
export async function searchReads(
  env: DbEnv,
  from: IsoDate,
  to: IsoDate,
): Promise<{
  cabins: CatalogueCabin[];
  rulesOf: (cabin: CabinPriceFields) => PricingRules;
  busy: (SourcedRange & { cabinId: number })[];
}> {
  const keep = keptCatalogue.begin(env);
  const [stamp, cabinRows, minStays, discounts, extras, settings, seasons, datePrices, ...busy] = await getDb(
    env,
  ).batch([
    dataStampQuery(env),
    ...catalogueQueries(env, keep.changed),
    ...pricingRangeQueries(env, from, to),
    ...busyRangeQueries(env, from, to),
  ]);
  const catalogue = keep.value(stamp, () => ({
    cabins: cabinRows,
    pricing: pricingDataFrom([minStays, discounts, extras, settings]),
  }));
  return {
    cabins: catalogue.cabins,
    rulesOf: rulesFrom(catalogue.pricing, [seasons, datePrices]),
    busy: busyRangesFrom(busy),
  };
}

/** The chart's cabins (every one, inactive too, by id), kept as search's are. */
const keptChartCabins = keptPerDatabase<{ id: number; name: string; active: boolean }[]>();

/**
 * What the owner's chart of [from, to) reads, in one round trip: every cabin (kept while the data
 * are unchanged), the new requests, the days waiting for a cleaning and every source of busy nights.
 */
export async function occupancyReads(env: DbEnv, from: IsoDate, to: IsoDate) {
  const keep = keptChartCabins.begin(env);
  const [stamp, cabinRows, requests, cleanings, ...busy] = await getDb(env).batch([
    dataStampQuery(env),
    getDb(env)
      .select({ id: cabins.id, name: cabins.name, active: cabins.active })
      .from(cabins)
      .where(keep.changed)
      .orderBy(asc(cabins.id)),
    staysByStatusQuery(env, 'new', from, to),
    openCleaningsQuery(env, from, to),
    ...busyRangeQueries(env, from, to),
  ]);
  return { cabins: keep.value(stamp, () => cabinRows), busy: busyRangesFrom(busy), requests, cleanings };
}
