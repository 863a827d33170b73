// The owner's numbers (docs/api.md «Reports»): the query of every report
// route and the shapes they answer. Plain zod and types: the panel's «Сводка» reads the same.
import { z } from 'zod';
import { addDays, addMonths, isIsoDate, nightsBetween, type IsoDate } from './dates.ts';
import { MSG } from './messages.ts';

/** The longest period a report covers: 3 years (a longer one is a 400). */
export const REPORT_MAX_MONTHS = 36;
/** «Сезон» of the period picker: June to September, the months a seaside cabin earns its year. */
export const SEASON_MONTHS = { first: 6, last: 9 } as const;

const day = z.string({ error: MSG.reportPeriodRequired }).refine(isIsoDate, MSG.dateInvalid);

/**
 * `?from=YYYY-MM-DD&to=YYYY-MM-DD`, Moscow dates, both days included: the nights from `from` up to
 * and including the night of `to`. The end may not come before the start, nor the period run past
 * 3 years.
 */
export const reportQuerySchema = z.object({ from: day, to: day }).superRefine((q, ctx) => {
  if (!isIsoDate(q.from) || !isIsoDate(q.to)) return;
  if (q.to < q.from) ctx.addIssue({ code: 'custom', message: MSG.datesOrder, path: ['to'] });
  else if (periodEnd(q.to) > addMonths(q.from, REPORT_MAX_MONTHS))
    ctx.addIssue({ code: 'custom', message: MSG.reportPeriodTooLong, path: ['to'] });
});
export type ReportQuery = z.infer<typeof reportQuerySchema>;

/** The morning after the period's last night: its nights are [from, periodEnd(to)). */
export const periodEnd = (to: IsoDate): IsoDate => addDays(to, 1);

/** The months a period's nights fall in (`YYYY-MM`), with how many of its nights each holds. */
export function periodMonths(q: ReportQuery): { month: string; nights: number }[] {
  const end = periodEnd(q.to);
  const out: { month: string; nights: number }[] = [];
  for (let start = q.from; start < end; ) {
    const next = addMonths(`${start.slice(0, 7)}-01`, 1);
    const stop = next < end ? next : end;
    out.push({ month: start.slice(0, 7), nights: nightsBetween(start, stop) });
    start = stop;
  }
  return out;
}

/** The same period a year before (29 February becomes the 28th). */
export const yearBefore = (q: ReportQuery): ReportQuery => ({ from: addMonths(q.from, -12), to: addMonths(q.to, -12) });

// ——— Answers. Money in roubles (paid and refunded may carry kopecks, as 1234.5); occupancy a
// share from 0 to 1, four places; a month is `YYYY-MM`.

/** Where sold nights came from: our own bookings («Сайт»), Avito's through its API, each imported calendar by its name. */
export type ChannelNights = { channel: 'site' | 'avito' | 'feed'; name: string; nights: number };

export type CabinFigures = {
  cabinId: number;
  name: string;
  active: boolean;
  /** Nights sold, every channel, within the period. */
  nights: number;
  /** Nights the cabin could be sold in the period: the period's nights while active, else 0. */
  available: number;
  /** nights / available; null for a cabin not active. */
  occupancy: number | null;
  /** Our bookings arriving in the period: confirmed ones, their totals, what was paid. */
  bookings: number;
  revenue: number;
  paid: number;
};

export type MonthFigures = {
  month: string;
  /** Nights sold in the month's part of the period, every channel, active cabins. */
  nights: number;
  available: number;
  occupancy: number | null;
  /** Confirmed bookings arriving in the month: their totals, and what was paid of bookings arriving in it. */
  revenue: number;
  paid: number;
};

export type ReportFigures = {
  from: IsoDate;
  to: IsoDate;
  /** Active cabins now, and the nights of the period. */
  cabins: number;
  days: number;
  /** Nights sold in active cabins / (active cabins × nights of the period); null without an active cabin. */
  occupancy: number | null;
  /** Nights sold in the period, every cabin and channel (nightsByChannel adds up to it). */
  nightsSold: number;
  nightsAvailable: number;
  /**
   * Our bookings arriving in the period: expected, the totals of the confirmed ones; paid, what
   * ЮKassa took for any of them, refunds taken off; refunded, what went (or goes) back.
   */
  revenue: { paid: number; expected: number; refunded: number };
  /** Average price of a night: the totals of the confirmed bookings / their nights (their fees and tax included, as in the totals). */
  adr: number | null;
  nightsByChannel: ChannelNights[];
  /** Median days from the request to arrival, confirmed bookings arriving in the period. */
  leadTimeDays: number | null;
  /** Bookings arriving in the period that were cancelled, and their share of the confirmed and cancelled ones. */
  cancellations: { count: number; share: number | null };
  /** Confirmed bookings arriving in the period. */
  bookings: number;
  byCabin: CabinFigures[];
  byMonth: MonthFigures[];
};

/** GET /api/admin/reports/summary: the period's figures and the same period a year before. */
export type ReportSummary = ReportFigures & { lastYear: ReportFigures };

/** The tourist tax of one cabin (or all) over a month or a quarter. */
export type TaxFigures = { nights: number; taxable: number; tax: number };
export type TaxCabin = TaxFigures & { cabinId: number; name: string };
export type TaxMonth = TaxFigures & { month: string; cabins: TaxCabin[] };
export type TaxQuarter = TaxFigures & { quarter: string; label: string; cabins: TaxCabin[] };

/**
 * GET /api/admin/reports/tourist-tax: the tax lines of confirmed bookings, each spread over the
 * months of its nights in whole roubles that add up to the line; the taxable amount is the
 * accommodation the tax was charged on. `total` is the sum over the period's nights.
 */
export type TouristTaxReport = {
  from: IsoDate;
  to: IsoDate;
  months: TaxMonth[];
  quarters: TaxQuarter[];
  total: TaxFigures;
};

/** «3 кв. 2025» of `2025-Q3`. */
export const quarterLabel = (quarter: string) => `${quarter.slice(6)} кв. ${quarter.slice(0, 4)}`;
/** `2025-Q3` of the month `2025-08`. */
export const quarterOf = (month: string) => `${month.slice(0, 4)}-Q${Math.ceil(Number(month.slice(5, 7)) / 3)}`;

// ——— The panel's period picker: a month, the season, a year, or the owner's own dates.

export const PERIOD_KINDS = ['month', 'season', 'year', 'custom'] as const;
export type PeriodKind = (typeof PERIOD_KINDS)[number];
export const PERIOD_LABELS: Record<PeriodKind, string> = {
  month: 'Месяц',
  season: 'Сезон',
  year: 'Год',
  custom: 'Свой период',
};

const pad = (n: number) => String(n).padStart(2, '0');
const lastDay = (year: number, month: number) => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The month (`YYYY-MM`), season or year that holds `day`, as a report's period. */
export function periodOf(kind: Exclude<PeriodKind, 'custom'>, day: IsoDate): ReportQuery {
  const year = Number(day.slice(0, 4));
  const month = Number(day.slice(5, 7));
  if (kind === 'month') return { from: `${day.slice(0, 7)}-01`, to: `${day.slice(0, 7)}-${pad(lastDay(year, month))}` };
  if (kind === 'season')
    return {
      from: `${year}-${pad(SEASON_MONTHS.first)}-01`,
      to: `${year}-${pad(SEASON_MONTHS.last)}-${pad(lastDay(year, SEASON_MONTHS.last))}`,
    };
  return { from: `${year}-01-01`, to: `${year}-12-31` };
}

// ——— The funnel (`GET /admin/reports/funnel`): the public pages' own counting (schema/visits.ts)
// beside the bookings made in the period, by day, by source and by cabin.

/** The steps of a visit, as counted: visits (first pages), searches, cards opened, dates chosen. */
export type VisitSteps = { visits: number; views: number; searches: number; cards: number; dates: number };
/**
 * Bookings made in the period (by the Moscow day of the request): requests, those paid (some
 * money in), those confirmed (a sold stay) and what the confirmed ones are worth, in roubles.
 */
export type BookingSteps = { requests: number; prepaid: number; confirmed: number; revenue: number };
export type FunnelFigures = VisitSteps & BookingSteps;
export type FunnelDay = FunnelFigures & { day: string };
/** A source: a link's utm_source, another site's host, «прямые заходы», or a platform (Авито, an imported calendar). */
export type FunnelSource = FunnelFigures & { source: string; channel: boolean };
export type FunnelCabin = Pick<FunnelFigures, 'cards' | 'dates' | 'requests' | 'confirmed' | 'revenue'> & {
  cabinId: number;
  name: string;
  /** requests / cards, four places; null with no card opened. */
  conversion: number | null;
};
export type FunnelReport = {
  from: string;
  to: string;
  total: FunnelFigures;
  days: FunnelDay[];
  bySource: FunnelSource[];
  byCabin: FunnelCabin[];
  /** The same period a year before, in total. */
  lastYear: FunnelFigures;
  /** Beacons dropped in the period: bad, or over a sender's limit. */
  dropped: number;
};
