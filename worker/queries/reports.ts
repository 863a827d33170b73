import { sql, type SQL } from 'drizzle-orm';
import { nightsBetween, type IsoDate } from '../../schema/dates.ts';
import {
  periodEnd,
  periodMonths,
  yearBefore,
  type CabinFigures,
  type ChannelNights,
  type MonthFigures,
  type ReportFigures,
  type ReportQuery,
  type ReportSummary,
} from '../../schema/reports.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { earliestArrival, monthsCte, paidOf, refundedOf } from './report-sql.ts';

type DbEnv = { DB: DatabasePort };

// «Сводка»: every figure computed by the database, one grouped query per figure set,
// never a loop over bookings. Nights are counted where they fall (clipped to the period); money,
// the price of a night, lead time and cancellations are of our bookings arriving in the period,
// the same bookings «Заявки» lists and the accountant's file holds.

/** The platforms read through an API, by their channel name (channel_stays.channel). */
const CHANNEL_NAMES: Record<string, string> = { avito: 'Авито' };
const SITE_NAME = 'Сайт';

/**
 * Every stay that sold nights of [from, end), its dates as text and as day numbers (julianday,
 * once a stay): our confirmed bookings, Avito's, and each imported calendar's events.
 */
const staysCte = (from: IsoDate, end: IsoDate): SQL => sql`stays(cabin_id, channel, name, a, z, s, e) as (
    select cabin_id, 'site', '', check_in, check_out, julianday(check_in), julianday(check_out) from bookings
      where status = 'confirmed' and check_in >= ${earliestArrival(from)} and check_in < ${end} and check_out > ${from}
    union all
    select cabin_id, channel, channel, start, "end", julianday(start), julianday("end") from channel_stays where start < ${end} and "end" > ${from}
    union all
    select e.cabin_id, 'feed', f.name, e.start, e."end", julianday(e.start), julianday(e."end") from feed_events e join calendar_feeds f on f.id = e.feed_id
      where e.start < ${end} and e."end" > ${from})`;

const whole = (v: SQL) => sql`cast(round(${v}) as integer)`;

/**
 * Nights sold, in one query: each stay cut into the months of the period (clipped to it), then
 * summed by cabin, and by month and channel (those of active cabins apart, for occupancy). Most
 * stays begin and end in one month: only the others are matched against the months.
 */
const nightsSql = (from: IsoDate, end: IsoDate) => sql`with recursive ${monthsCte(from, end)},
    m(month, m_start, m_end, ms, me) as materialized (select substr(m_start, 1, 7), m_start, m_end, julianday(m_start), julianday(m_end) from months),
    ${staysCte(from, end)},
    cut as materialized (
      select cabin_id, substr(a, 1, 7) as month, channel, name, min(e, julianday(${end})) - max(s, julianday(${from})) as n
        from stays where substr(a, 1, 7) = substr(z, 1, 7)
      union all
      select st.cabin_id, m.month, st.channel, st.name, min(st.e, m.me) - max(st.s, m.ms)
        from stays st join m on st.a < m.m_end and st.z > m.m_start where substr(st.a, 1, 7) <> substr(st.z, 1, 7))
  select 'cabin' as part, cabin_id as cabinId, null as month, null as channel, null as name, ${whole(sql`sum(n)`)} as nights, null as activeNights
    from cut group by cabin_id
  union all
  select 'month', null, cut.month, cut.channel, cut.name, ${whole(sql`sum(n)`)}, ${whole(sql`sum(case when c.active then n else 0 end)`)}
    from cut join cabins c on c.id = cut.cabin_id group by cut.month, cut.channel, cut.name`;

/**
 * Days from the request (created_at, an ISO instant in UTC) to arrival, counted from its day in
 * Moscow: UTC+3 all year, so a request from 21:00 UTC on came in the next day there. Cheaper than
 * date(created_at, '+3 hours') over a year's bookings. A stay the owner entered after the guest had
 * come (a walk-in written down the next day) counts as booked on the day of arrival: never below 0.
 */
const leadDays = sql`max(0, julianday(b.check_in) - julianday(substr(b.created_at, 1, 10)) - (substr(b.created_at, 12, 2) >= '21'))`;
const arrivalsSums = sql`sum(ok) as confirmed, sum(gone) as cancelled, sum(expected) as expected, sum(nights) as nights, sum(paid) as paid, sum(refunded) as refunded`;

/**
 * Our bookings arriving in [from, to] (both days), in one query: each booking's money (over its
 * payments, as «Заявки» shows it), nights, status and lead time worked out once, then summed by
 * cabin and by month of arrival; and the median lead time of the confirmed ones (the middle one,
 * or the mean of the middle two).
 */
const arrivalsSql = (from: IsoDate, to: IsoDate) => sql`with a as materialized (
      select b.cabin_id, substr(b.check_in, 1, 7) as month, b.status = 'confirmed' as ok, b.status = 'cancelled' as gone,
        case when b.status = 'confirmed' then b.total else 0 end as expected,
        case when b.status = 'confirmed' then b.nights else 0 end as nights,
        ${paidOf(sql`b`)} as paid, ${refundedOf(sql`b`)} as refunded,
        case when b.status = 'confirmed' then ${leadDays} end as lead
      from bookings b where b.check_in >= ${from} and b.check_in <= ${to}),
    leads(d) as (select lead from a where lead is not null)
  select 'cabin' as part, cabin_id as cabinId, null as month, ${arrivalsSums}, null as median from a group by cabin_id
  union all
  select 'month', null, month, ${arrivalsSums}, null from a group by month
  union all
  select 'lead', null, null, 0, 0, 0, 0, 0, 0, (select avg(d) from (select d from leads order by d
    limit 2 - (select count(*) from leads) % 2 offset ((select count(*) from leads) - 1) / 2))`;

type Arrivals = {
  confirmed: number;
  cancelled: number;
  expected: number;
  nights: number;
  paid: number;
  refunded: number;
};
type CabinRow = { id: number; name: string; active: number | boolean };
type Part<K extends string> = { part: K; cabinId: number; month: string };

const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);
const roubles = (kopecks: number) => Math.round(kopecks) / 100;

/** The figures of one period (two queries), the cabins read once for both periods. */
async function figures(env: DbEnv, q: ReportQuery, cabinRows: CabinRow[]): Promise<ReportFigures> {
  const db = getDb(env);
  const { from, to } = q;
  const end = periodEnd(to);
  const [nightRows, arrivalRows] = await Promise.all([
    db.all<Part<'cabin' | 'month'> & { channel: string; name: string; nights: number; activeNights: number }>(
      nightsSql(from, end),
    ),
    db.all<Part<'cabin' | 'month' | 'lead'> & Arrivals & { median: number | null }>(arrivalsSql(from, to)),
  ]);
  const byCabinNights = nightRows.filter((r) => r.part === 'cabin');
  const byMonthNights = nightRows.filter((r) => r.part === 'month');
  const byCabinArrivals = arrivalRows.filter((r) => r.part === 'cabin');
  const byMonthArrivals = arrivalRows.filter((r) => r.part === 'month');
  const lead = arrivalRows.filter((r) => r.part === 'lead');

  const days = nightsBetween(from, end);
  const active = cabinRows.filter((c) => Boolean(c.active));
  const nightsOf = new Map(byCabinNights.map((r) => [r.cabinId, Number(r.nights)]));
  const arrivalsOf = new Map(byCabinArrivals.map((r) => [r.cabinId, r]));
  const byCabin: CabinFigures[] = cabinRows.map((c) => {
    const nights = nightsOf.get(c.id) ?? 0;
    const available = c.active ? days : 0;
    const a = arrivalsOf.get(c.id);
    return {
      cabinId: c.id,
      name: c.name,
      active: Boolean(c.active),
      nights,
      available,
      occupancy: c.active ? share(nights, available) : null,
      bookings: a?.confirmed ?? 0,
      revenue: a?.expected ?? 0,
      paid: roubles(a?.paid ?? 0),
    };
  });

  const monthArrivals = new Map(byMonthArrivals.map((r) => [r.month, r]));
  const monthNights = new Map<string, number>();
  const channels = new Map<string, ChannelNights>();
  for (const r of byMonthNights) {
    monthNights.set(r.month, (monthNights.get(r.month) ?? 0) + Number(r.activeNights));
    const key = `${r.channel}|${r.name}`;
    const channel: ChannelNights['channel'] = r.channel === 'site' ? 'site' : r.channel === 'feed' ? 'feed' : 'avito';
    const entry = channels.get(key) ?? {
      channel,
      name: r.channel === 'site' ? SITE_NAME : r.channel === 'feed' ? r.name : (CHANNEL_NAMES[r.channel] ?? r.channel),
      nights: 0,
    };
    entry.nights += Number(r.nights);
    channels.set(key, entry);
  }
  const byMonth: MonthFigures[] = periodMonths(q).map(({ month, nights: monthDays }) => {
    const nights = monthNights.get(month) ?? 0;
    const available = active.length * monthDays;
    const a = monthArrivals.get(month);
    return {
      month,
      nights,
      available,
      occupancy: share(nights, available),
      revenue: a?.expected ?? 0,
      paid: roubles(a?.paid ?? 0),
    };
  });

  const sum = (key: keyof Arrivals) => byCabinArrivals.reduce((s, r) => s + Number(r[key]), 0);
  // Sold in any cabin (the channels add up to it); occupancy is of the active ones.
  const nightsSold = [...nightsOf.values()].reduce((s, n) => s + n, 0);
  const activeSold = active.reduce((s, c) => s + (nightsOf.get(c.id) ?? 0), 0);
  const nightsAvailable = active.length * days;
  const confirmed = sum('confirmed');
  const cancelled = sum('cancelled');
  const median = lead[0]?.median;
  const order: Record<ChannelNights['channel'], number> = { site: 0, avito: 1, feed: 2 };
  return {
    from,
    to,
    cabins: active.length,
    days,
    occupancy: share(activeSold, nightsAvailable),
    nightsSold,
    nightsAvailable,
    revenue: { paid: roubles(sum('paid')), expected: sum('expected'), refunded: roubles(sum('refunded')) },
    adr: sum('nights') > 0 ? Math.round(sum('expected') / sum('nights')) : null,
    nightsByChannel: [...channels.values()].sort(
      (a, b) => order[a.channel] - order[b.channel] || b.nights - a.nights || a.name.localeCompare(b.name, 'ru'),
    ),
    leadTimeDays: median === null || median === undefined ? null : Math.round(median * 10) / 10,
    cancellations: { count: cancelled, share: share(cancelled, confirmed + cancelled) },
    bookings: confirmed,
    byCabin,
    byMonth,
  };
}

/** GET /api/admin/reports/summary: the period's figures beside the same period a year before. */
export async function reportSummary(env: DbEnv, q: ReportQuery): Promise<ReportSummary> {
  const cabinRows = await getDb(env).all<CabinRow>(sql`select id, name, active from cabins order by id`);
  const [current, lastYear] = await Promise.all([figures(env, q, cabinRows), figures(env, yearBefore(q), cabinRows)]);
  return { ...current, lastYear };
}
