import { sql, type SQL } from 'drizzle-orm';
import { nightsBetween, type IsoDate } from '../../schema/dates.ts';
import { periodEnd, periodMonths, yearBefore, type CabinFigures, type ChannelNights, type MonthFigures, type ReportFigures, type ReportQuery, type ReportSummary } from '../../schema/reports.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { daysBetween, LODGING_KINDS, linesSum, monthsCte, paidOf, refundedOf } from './report-sql.ts';

type DbEnv = { DB: DatabasePort };

// «Сводка» (issue 43): every figure computed by the database, one grouped query per figure set,
// never a loop over bookings. Nights are counted where they fall (clipped to the period); money,
// the price of a night, lead time and cancellations are of our bookings arriving in the period,
// the same bookings «Заявки» lists and the accountant's file holds.

/** The platforms read through an API, by their channel name (channel_stays.channel). */
const CHANNEL_NAMES: Record<string, string> = { avito: 'Авито' };
const SITE_NAME = 'Сайт';

/** Every stay that sold nights of [from, end): our confirmed bookings, Avito's, and each imported calendar's events. */
const staysCte = (from: IsoDate, end: IsoDate): SQL => sql`stays(cabin_id, channel, name, start, "end") as (
    select cabin_id, 'site', '', check_in, check_out from bookings where status = 'confirmed' and check_in < ${end} and check_out > ${from}
    union all
    select cabin_id, channel, channel, start, "end" from channel_stays where start < ${end} and "end" > ${from}
    union all
    select e.cabin_id, 'feed', f.name, e.start, e."end" from feed_events e join calendar_feeds f on f.id = e.feed_id where e.start < ${end} and e."end" > ${from})`;

/** The nights of a stay within [start, end). */
const clipped = (start: SQL, end: SQL) => daysBetween(sql`max(s.start, ${start})`, sql`min(s."end", ${end})`);

/** Our bookings arriving in [from, to] (both days): the money, nights and statuses of a group of them. */
const arrivalsFigures = sql`count(case when b.status = 'confirmed' then 1 end) as confirmed,
    count(case when b.status = 'cancelled' then 1 end) as cancelled,
    coalesce(sum(case when b.status = 'confirmed' then b.total end), 0) as expected,
    coalesce(sum(case when b.status = 'confirmed' then b.nights end), 0) as nights,
    coalesce(sum(case when b.status = 'confirmed' then coalesce(${linesSum(sql`b`, LODGING_KINDS)}, b.total) end), 0) as lodging,
    coalesce(sum(${paidOf(sql`b`)}), 0) as paid,
    coalesce(sum(${refundedOf(sql`b`)}), 0) as refunded`;

type Arrivals = { confirmed: number; cancelled: number; expected: number; nights: number; lodging: number; paid: number; refunded: number };
type CabinRow = { id: number; name: string; active: number | boolean };

const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 10_000) / 10_000 : null);
const roubles = (kopecks: number) => Math.round(kopecks) / 100;

/** The figures of one period, the cabins read once for both periods. */
async function figures(env: DbEnv, q: ReportQuery, cabinRows: CabinRow[]): Promise<ReportFigures> {
  const db = getDb(env);
  const { from, to } = q;
  const end = periodEnd(to);
  const [byCabinNights, byMonthNights, byCabinArrivals, byMonthArrivals, lead] = await Promise.all([
    db.all<{ cabinId: number; nights: number }>(sql`with ${staysCte(from, end)}
      select cabin_id as cabinId, sum(${clipped(sql`${from}`, sql`${end}`)}) as nights from stays s group by cabin_id`),
    db.all<{ month: string; channel: string; name: string; nights: number; activeNights: number }>(sql`with recursive ${monthsCte(from, end)}, ${staysCte(from, end)}
      select substr(m.m_start, 1, 7) as month, s.channel as channel, s.name as name, sum(${clipped(sql`m.m_start`, sql`m.m_end`)}) as nights,
        sum(case when c.active then ${clipped(sql`m.m_start`, sql`m.m_end`)} else 0 end) as activeNights
      from stays s join months m on s.start < m.m_end and s."end" > m.m_start join cabins c on c.id = s.cabin_id
      group by month, s.channel, s.name`),
    db.all<Arrivals & { cabinId: number }>(sql`select b.cabin_id as cabinId, ${arrivalsFigures}
      from bookings b where b.check_in >= ${from} and b.check_in <= ${to} group by b.cabin_id`),
    db.all<Arrivals & { month: string }>(sql`select substr(b.check_in, 1, 7) as month, ${arrivalsFigures}
      from bookings b where b.check_in >= ${from} and b.check_in <= ${to} group by month`),
    // The median: the middle one, or the mean of the middle two (none: no row, null).
    db.all<{ median: number | null }>(sql`with leads(d) as (
        select julianday(check_in) - julianday(date(created_at, '+3 hours')) from bookings
        where status = 'confirmed' and check_in >= ${from} and check_in <= ${to})
      select avg(d) as median from (select d from leads order by d
        limit 2 - (select count(*) from leads) % 2 offset ((select count(*) from leads) - 1) / 2)`),
  ]);

  const days = nightsBetween(from, end);
  const active = cabinRows.filter((c) => Boolean(c.active));
  const nightsOf = new Map(byCabinNights.map((r) => [r.cabinId, Number(r.nights)]));
  const arrivalsOf = new Map(byCabinArrivals.map((r) => [r.cabinId, r]));
  const byCabin: CabinFigures[] = cabinRows.map((c) => {
    const nights = nightsOf.get(c.id) ?? 0;
    const available = c.active ? days : 0;
    const a = arrivalsOf.get(c.id);
    return {
      cabinId: c.id, name: c.name, active: Boolean(c.active), nights, available, occupancy: c.active ? share(nights, available) : null,
      bookings: a?.confirmed ?? 0, revenue: a?.expected ?? 0, paid: roubles(a?.paid ?? 0),
    };
  });

  const monthArrivals = new Map(byMonthArrivals.map((r) => [r.month, r]));
  const monthNights = new Map<string, number>();
  const channels = new Map<string, ChannelNights>();
  for (const r of byMonthNights) {
    monthNights.set(r.month, (monthNights.get(r.month) ?? 0) + Number(r.activeNights));
    const key = `${r.channel}|${r.name}`;
    const channel: ChannelNights['channel'] = r.channel === 'site' ? 'site' : r.channel === 'feed' ? 'feed' : 'avito';
    const entry = channels.get(key) ?? { channel, name: r.channel === 'site' ? SITE_NAME : r.channel === 'feed' ? r.name : (CHANNEL_NAMES[r.channel] ?? r.channel), nights: 0 };
    entry.nights += Number(r.nights);
    channels.set(key, entry);
  }
  const byMonth: MonthFigures[] = periodMonths(q).map(({ month, nights: monthDays }) => {
    const nights = monthNights.get(month) ?? 0;
    const available = active.length * monthDays;
    const a = monthArrivals.get(month);
    return { month, nights, available, occupancy: share(nights, available), revenue: a?.expected ?? 0, paid: roubles(a?.paid ?? 0) };
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
    from, to, cabins: active.length, days,
    occupancy: share(activeSold, nightsAvailable), nightsSold, nightsAvailable,
    revenue: { paid: roubles(sum('paid')), expected: sum('expected'), refunded: roubles(sum('refunded')) },
    adr: sum('nights') > 0 ? Math.round(sum('lodging') / sum('nights')) : null,
    nightsByChannel: [...channels.values()].sort((a, b) => order[a.channel] - order[b.channel] || b.nights - a.nights || a.name.localeCompare(b.name, 'ru')),
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
