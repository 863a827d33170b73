import { sql, type SQL } from 'drizzle-orm';
import { addDays, type IsoDate } from '../../schema/dates.ts';
import {
  yearBefore,
  type BookingSteps,
  type FunnelCabin,
  type FunnelFigures,
  type FunnelReport,
  type FunnelSource,
  type ReportQuery,
  type VisitSteps,
} from '../../schema/reports.ts';
import { bookingSourceName } from '../../schema/visits.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { paidOf } from './report-sql.ts';

type DbEnv = { DB: DatabasePort };

// The funnel: what the public pages counted (the rollups of visit_counts, by day and source and by
// cabin) beside the bookings made in the period. A few grouped queries; nothing is read visit by visit.

const NO_VISITS: VisitSteps = { visits: 0, views: 0, searches: 0, cards: 0, dates: 0 };
const NO_BOOKINGS: BookingSteps = { requests: 0, prepaid: 0, confirmed: 0, revenue: 0 };
const none = (): FunnelFigures => ({ ...NO_VISITS, ...NO_BOOKINGS });

/** The step of the funnel a stored kind adds to (a visit's first page is a view too). */
function addVisit(to: VisitSteps, kind: string, count: number) {
  if (kind === 'visit') {
    to.visits += count;
    to.views += count;
  } else if (kind === 'view') to.views += count;
  else if (kind === 'search') to.searches += count;
  else if (kind === 'card') to.cards += count;
  else if (kind === 'dates') to.dates += count;
}

/** Moscow is UTC+3 all year: a request made on Moscow day d has created_at in [d-1 21:00Z, d 21:00Z). */
const createdFrom = (from: IsoDate) => `${addDays(from, -1)}T21:00:00`;
const createdBefore = (to: IsoDate) => `${to}T21:00:00`;
const moscowDay = sql`date(b.created_at, '+3 hours')`;

type KindCount = { kind: string; count: number };
type VisitRows = {
  byDay: (KindCount & { day: string })[];
  bySource: (KindCount & { source: string })[];
  byCabin: (KindCount & { cabinId: number })[];
};
type BookingRow = {
  day: string;
  cabinId: number;
  utmSource: string | null;
  referrer: string | null;
  requests: number;
  prepaid: number;
  confirmed: number;
  revenue: number;
};

/**
 * A period over the rollups: its whole months from their month rows ('m2025-07', kept beside the
 * day rows by visit_counts' triggers), the days before the first and after the last from the day
 * rows. A year is then twelve rows a source or cabin, not 365.
 */
export function rollupPeriod(q: ReportQuery): SQL {
  const firstWhole = q.from.endsWith('-01') ? q.from : `${addDays(`${q.from.slice(0, 8)}28`, 4).slice(0, 8)}01`;
  const lastWhole = addDays(q.to, 1).endsWith('-01') ? q.to : addDays(`${q.to.slice(0, 8)}01`, -1);
  if (firstWhole > lastWhole) return sql`(day >= ${q.from} and day <= ${q.to})`;
  return sql`((day >= ${`m${firstWhole.slice(0, 7)}`} and day <= ${`m${lastWhole.slice(0, 7)}`})
    or (day >= ${q.from} and day < ${firstWhole}) or (day > ${lastWhole} and day <= ${q.to}))`;
}

/**
 * The counting of a period, summed three ways from the rollups visit_counts' triggers keep
 * (visit_sources, visit_cabins): by day (the day rows; a month row sorts after every day), by
 * source and by cabin (whole months from the month rows). A few thousand rows for a year.
 */
async function readVisits(env: DbEnv, q: ReportQuery): Promise<VisitRows> {
  const db = getDb(env);
  const period = rollupPeriod(q);
  const [byDay, bySource, byCabin] = await Promise.all([
    db.all<VisitRows['byDay'][number]>(sql`select day, kind, sum(count) as count from visit_sources
      where day >= ${q.from} and day <= ${q.to} group by day, kind`),
    db.all<VisitRows['bySource'][number]>(sql`select source, kind, sum(count) as count from visit_sources
      where ${period} group by source, kind`),
    db.all<VisitRows['byCabin'][number]>(sql`select cabin_id as cabinId, kind, sum(count) as count from visit_cabins
      where ${period} group by cabin_id, kind`),
  ]);
  return { byDay, bySource, byCabin };
}

/** The year before's counting: only its totals by kind are shown. */
const readVisitTotals = (env: DbEnv, q: ReportQuery) =>
  getDb(env).all<KindCount>(sql`select kind, sum(count) as count from visit_sources
    where ${rollupPeriod(q)} group by kind`);

/** The steps of the bookings made in a period, summed in SQL. */
const bookingSteps = sql`count(*) as requests, sum(${paidOf(sql`b`)} > 0) as prepaid,
  sum(b.status = 'confirmed') as confirmed, sum(case when b.status = 'confirmed' then b.total else 0 end) as revenue`;
const madeIn = (q: ReportQuery) =>
  sql`b.created_at >= ${createdFrom(q.from)} and b.created_at < ${createdBefore(q.to)}`;

/** The year before's bookings: only their totals are shown, one row. */
const readBookingTotals = async (env: DbEnv, q: ReportQuery) =>
  (await getDb(env).all<BookingSteps>(sql`select ${bookingSteps} from bookings b where ${madeIn(q)}`))[0] ??
  NO_BOOKINGS;

async function readBookings(env: DbEnv, q: ReportQuery) {
  const db = getDb(env);
  const [bookings, avito, feeds] = await Promise.all([
    db.all<BookingRow>(sql`select ${moscowDay} as day, b.cabin_id as cabinId,
        json_extract(b.source, '$.utmSource') as utmSource, json_extract(b.source, '$.referrer') as referrer,
        ${bookingSteps}
      from bookings b where ${madeIn(q)} group by 1, 2, 3, 4`),
    // The platforms' bookings count as their channel, by arrival: Avito's carry their price.
    db.all<{
      channel: string;
      stays: number;
      revenue: number;
    }>(sql`select channel, count(*) as stays, sum(price) as revenue
      from channel_stays where start >= ${q.from} and start <= ${q.to} and status <> 'cancelled' group by channel`),
    db.all<{ name: string; stays: number }>(sql`select f.name as name, count(*) as stays from feed_events e
      join calendar_feeds f on f.id = e.feed_id where e.start >= ${q.from} and e.start <= ${q.to} group by f.name`),
  ]);
  return { bookings, avito, feeds };
}

const CHANNEL_SOURCE: Record<string, string> = { avito: 'Авито' };

/** The funnel of a period: by day, by source, by cabin, and the same period a year before. */
export async function funnelReport(env: DbEnv, q: ReportQuery): Promise<FunnelReport> {
  const before = yearBefore(q);
  const [visits, now, visitsBefore, bookingsBefore, cabins] = await Promise.all([
    readVisits(env, q),
    readBookings(env, q),
    readVisitTotals(env, before),
    readBookingTotals(env, before),
    getDb(env).all<{ id: number; name: string }>(sql`select id, name from cabins order by id`),
  ]);

  const total = none();
  let dropped = 0;
  const days = new Map<string, FunnelFigures>();
  const sources = new Map<string, FunnelSource>();
  const byCabin = new Map<number, FunnelFigures>();
  const dayOf = (d: string) => days.get(d) ?? days.set(d, none()).get(d)!;
  const sourceOf = (s: string, channel = false) =>
    sources.get(s) ?? sources.set(s, { ...none(), source: s, channel }).get(s)!;
  const cabinOf = (id: number) => byCabin.get(id) ?? byCabin.set(id, none()).get(id)!;

  for (const v of visits.byDay) {
    if (v.kind === 'dropped') dropped += v.count;
    else for (const to of [total, dayOf(v.day)]) addVisit(to, v.kind, v.count);
  }
  for (const v of visits.bySource) if (v.kind !== 'dropped') addVisit(sourceOf(v.source), v.kind, v.count);
  for (const v of visits.byCabin) addVisit(cabinOf(v.cabinId), v.kind, v.count);
  for (const b of now.bookings) {
    const source = bookingSourceName({ utmSource: b.utmSource ?? undefined, referrer: b.referrer ?? undefined });
    for (const to of [total, dayOf(b.day), sourceOf(source), cabinOf(b.cabinId)]) addBookings(to, b);
  }
  for (const a of now.avito) {
    const to = sourceOf(CHANNEL_SOURCE[a.channel] ?? a.channel, true);
    addBookings(to, { requests: a.stays, prepaid: 0, confirmed: a.stays, revenue: a.revenue });
  }
  for (const f of now.feeds) sourceOf(f.name, true).confirmed += f.stays;

  const lastYear = none();
  for (const v of visitsBefore) if (v.kind !== 'dropped') addVisit(lastYear, v.kind, v.count);
  addBookings(lastYear, bookingsBefore);

  const names = new Map(cabins.map((c) => [c.id, c.name]));
  return {
    from: q.from,
    to: q.to,
    total,
    dropped,
    lastYear,
    days: [...days.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([day, f]) => ({ day, ...f })),
    bySource: [...sources.values()].sort(
      (a, b) =>
        b.confirmed - a.confirmed || b.requests - a.requests || b.visits - a.visits || a.source.localeCompare(b.source),
    ),
    byCabin: [...byCabin.entries()]
      .filter(([id]) => names.has(id))
      .map(
        ([id, f]): FunnelCabin => ({
          cabinId: id,
          name: names.get(id)!,
          cards: f.cards,
          dates: f.dates,
          requests: f.requests,
          confirmed: f.confirmed,
          revenue: f.revenue,
          conversion: f.cards > 0 ? Math.round((f.requests / f.cards) * 10_000) / 10_000 : null,
        }),
      )
      .sort((a, b) => a.cabinId - b.cabinId),
  };
}

function addBookings(to: BookingSteps, b: BookingSteps) {
  to.requests += Number(b.requests);
  to.prepaid += Number(b.prepaid);
  to.confirmed += Number(b.confirmed);
  to.revenue += Number(b.revenue);
}
