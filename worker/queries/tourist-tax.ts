import { sql } from 'drizzle-orm';
import {
  periodEnd,
  periodMonths,
  quarterLabel,
  quarterOf,
  type ReportQuery,
  type TaxCabin,
  type TaxFigures,
  type TouristTaxReport,
} from '../../schema/reports.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { daysBetween, earliestArrival, LODGING_KINDS, lineKind, monthsCte } from './report-sql.ts';

type DbEnv = { DB: DatabasePort };

/**
 * The tourist-tax report: the tax line of each confirmed booking (and the accommodation
 * it was charged on) spread over the months of its nights, in one grouped query. A month gets
 * floor(tax × nights up to its end / nights) − floor(tax × nights up to its start / nights): whole
 * roubles that add up to the line exactly, whatever months a stay crosses. Quarters and the total
 * are sums of the months.
 */
export async function touristTaxReport(env: DbEnv, q: ReportQuery): Promise<TouristTaxReport> {
  const { from, to } = q;
  const end = periodEnd(to);
  const kind = lineKind(sql`l.value`);
  const rows = await getDb(env).all<
    { month: string; cabinId: number; name: string } & TaxFigures
  >(sql`with recursive ${monthsCte(from, end)},
    taxed as (
      select b.id, b.cabin_id, b.check_in as ci, b.check_out as co, ${daysBetween(sql`b.check_in`, sql`b.check_out`)} as n,
        sum(case when ${kind} = 'tax' then json_extract(l.value, '$.amount') else 0 end) as tax,
        sum(case when ${kind} in ${LODGING_KINDS} then json_extract(l.value, '$.amount') else 0 end) as taxable
      from bookings b, json_each(b.lines) l
      where b.status = 'confirmed' and b.check_in >= ${earliestArrival(from)} and b.check_in < ${end} and b.check_out > ${from}
      group by b.id),
    spread as (
      select substr(m.m_start, 1, 7) as month, t.cabin_id, t.tax, t.taxable, t.n,
        ${daysBetween(sql`t.ci`, sql`max(m.m_start, t.ci)`)} as a, ${daysBetween(sql`t.ci`, sql`min(m.m_end, t.co)`)} as z
      from taxed t join months m on t.ci < m.m_end and t.co > m.m_start
      where t.tax <> 0 and t.n > 0)
    select s.month as month, s.cabin_id as cabinId, c.name as name, sum(s.z - s.a) as nights,
      sum(s.taxable * s.z / s.n - s.taxable * s.a / s.n) as taxable, sum(s.tax * s.z / s.n - s.tax * s.a / s.n) as tax
    from spread s join cabins c on c.id = s.cabin_id
    group by s.month, s.cabin_id order by s.month, c.name, s.cabin_id`);

  const months = periodMonths(q).map(({ month }) =>
    group(
      month,
      rows.filter((r) => r.month === month),
    ),
  );
  const quarters = [...new Set(months.map((m) => quarterOf(m.month)))].map((quarter) => ({
    quarter,
    label: quarterLabel(quarter),
    ...group(
      quarter,
      rows.filter((r) => quarterOf(r.month) === quarter),
    ),
  }));
  return { from, to, months, quarters: quarters.map(({ month: _, ...q }) => q), total: add(rows) };
}

const add = (rows: readonly TaxFigures[]): TaxFigures =>
  rows.reduce(
    (s, r) => ({
      nights: s.nights + Number(r.nights),
      taxable: s.taxable + Number(r.taxable),
      tax: s.tax + Number(r.tax),
    }),
    { nights: 0, taxable: 0, tax: 0 },
  );

/** The rows of a month or a quarter, by cabin, and their sum. */
function group(month: string, rows: readonly ({ cabinId: number; name: string } & TaxFigures)[]) {
  const cabins = new Map<number, TaxCabin>();
  for (const r of rows) {
    const c = cabins.get(r.cabinId) ?? { cabinId: r.cabinId, name: r.name, nights: 0, taxable: 0, tax: 0 };
    c.nights += Number(r.nights);
    c.taxable += Number(r.taxable);
    c.tax += Number(r.tax);
    cabins.set(r.cabinId, c);
  }
  const list = [...cabins.values()].sort((a, b) => a.name.localeCompare(b.name, 'ru') || a.cabinId - b.cabinId);
  return { month, ...add(list), cabins: list };
}
