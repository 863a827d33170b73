// «Сводка»'s period: a month, the season (June to September), a year, or the owner's own
// dates; the arrows step a preset period back and forth. Pure, so it is unit-tested.
import { addMonths, type IsoDate } from '../../../schema/dates.ts';
import { formatMonthYear, MONTHS_GENITIVE, MONTHS_NOMINATIVE, NBSP } from '../../../schema/format.ts';
import { periodOf, SEASON_MONTHS, type PeriodKind, type ReportQuery } from '../../../schema/reports.ts';

export type Period = ReportQuery & { kind: PeriodKind };

const MONTHS_SHORT = ['янв', 'фев', 'мар', 'апр', 'май', 'июн', 'июл', 'авг', 'сен', 'окт', 'ноя', 'дек'] as const;

/** The preset period of `kind` holding `day`; a custom period keeps its dates. */
export const presetPeriod = (kind: Exclude<PeriodKind, 'custom'>, day: IsoDate): Period => ({
  kind,
  ...periodOf(kind, day),
});

/** The period before (−1) or after (+1) a preset one: the month, season or year next to it. */
export function stepPeriod(p: Period, dir: -1 | 1): Period {
  if (p.kind === 'custom') return p;
  return presetPeriod(p.kind, addMonths(p.from, p.kind === 'month' ? dir : 12 * dir));
}

/** «Июль 2025», «Сезон 2025 (июнь — сентябрь)», «2025 год», «1 июня — 31 июля 2025». */
export function periodLabel(p: Period): string {
  const year = p.from.slice(0, 4);
  if (p.kind === 'month') return formatMonthYear(p.from);
  if (p.kind === 'season')
    return `Сезон ${year} (${MONTHS_NOMINATIVE[SEASON_MONTHS.first - 1]!.toLowerCase()} — ${MONTHS_NOMINATIVE[SEASON_MONTHS.last - 1]!.toLowerCase()})`;
  if (p.kind === 'year') return `${year}${NBSP}год`;
  const day = (d: IsoDate) => `${Number(d.slice(8))}${NBSP}${MONTHS_GENITIVE[Number(d.slice(5, 7)) - 1]}`;
  return p.from.slice(0, 4) === p.to.slice(0, 4)
    ? `${day(p.from)} — ${day(p.to)} ${p.to.slice(0, 4)}`
    : `${day(p.from)} ${year} — ${day(p.to)} ${p.to.slice(0, 4)}`;
}

/** «Июль 2025» of `2025-07`; `short`: «июл 25» for a chart's axis. */
export function monthLabel(month: string, short = false): string {
  const m = Number(month.slice(5, 7)) - 1;
  return short ? `${MONTHS_SHORT[m]}${NBSP}${month.slice(2, 4)}` : formatMonthYear(month);
}

/** A share as a percentage: «15,6 %», «—» when there is none. */
export function percent(share: number | null): string {
  if (share === null) return '—';
  const value = Math.round(share * 1000) / 10;
  return `${String(value).replace('.', ',')}${NBSP}%`;
}
