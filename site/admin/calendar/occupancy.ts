// «Шахматка»'s data and its layout, apart from React: GET /api/admin/occupancy (docs/api.md
// «Search, occupancy and health») and where each range sits on a cabin's row.
import { addDays, nightsBetween, nightsOf, type IsoDate } from '../../../schema/dates.ts';
import { formatMonthYear } from '../../../schema/format.ts';
import type { OccupancyAnswer, OccupancyKind, OccupancyRange } from '../../../schema/search.ts';
import { call, client } from '../client.ts';

export type { OccupancyKind, OccupancyRange };
export type Occupancy = OccupancyAnswer;
export type OccupancyCabin = Occupancy['cabins'][number];

/** Every cabin's nights from `from` for `days` days, the ranges clipped to that window. */
export const loadOccupancy = (from: IsoDate, days: number): Promise<Occupancy> =>
  call(client().admin.occupancy.$get({ query: { from, days: String(days) } }));

/** What makes a night busy for a guest; a new request does not (it waits for the owner). */
export const isBusyKind = (kind: OccupancyKind): boolean => kind !== 'request';

/** A range on a cabin's row: its first column (0 = `from`), how many nights it covers and its lane. */
export type Placed = { range: OccupancyRange; col: number; span: number; lane: number };

/**
 * Lays a cabin's ranges out on lanes so none hides another: busy ranges first, so they keep the
 * top lane, and a request that overlaps them (it is not busy yet) goes below.
 */
export function placeRanges(
  ranges: OccupancyRange[],
  from: IsoDate,
  days: number,
): { placed: Placed[]; lanes: number } {
  const order = [...ranges].sort(
    (a, b) => Number(isBusyKind(b.kind)) - Number(isBusyKind(a.kind)) || a.start.localeCompare(b.start),
  );
  const laneEnds: IsoDate[] = [];
  const placed: Placed[] = [];
  const last = addDays(from, days);
  for (const range of order) {
    const start = range.start < from ? from : range.start;
    const end = range.end > last ? last : range.end;
    if (end <= start) continue;
    let lane = laneEnds.findIndex((e) => e <= start);
    if (lane < 0) lane = laneEnds.push(end) - 1;
    else laneEnds[lane] = end;
    placed.push({ range, col: nightsBetween(from, start), span: nightsBetween(start, end), lane });
  }
  return { placed, lanes: Math.max(1, laneEnds.length) };
}

/** The nights of the window a guest could not book: confirmed stays, manual blocks, imported feeds. */
export function busyNights(ranges: OccupancyRange[]): Set<IsoDate> {
  return new Set(ranges.filter((r) => isBusyKind(r.kind)).flatMap((r) => nightsOf(r.start, r.end)));
}

const WEEKDAYS = ['вс', 'пн', 'вт', 'ср', 'чт', 'пт', 'сб'] as const;

/** A column's heading: the day of the month and of the week, and whether it is Saturday or Sunday. */
export function dayHead(date: IsoDate): { day: number; weekday: string; weekend: boolean } {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const dow = new Date(Date.UTC(y, m - 1, d)).getUTCDay();
  return { day: d, weekday: WEEKDAYS[dow]!, weekend: dow === 0 || dow === 6 };
}

/** The months the window crosses, each with its first column and width: «Декабрь 2026». */
export function monthSpans(from: IsoDate, days: number): { label: string; col: number; span: number }[] {
  const out: { label: string; col: number; span: number }[] = [];
  nightsOf(from, addDays(from, days)).forEach((date, col) => {
    const label = formatMonthYear(date);
    const cur = out.at(-1);
    if (cur?.label === label) cur.span += 1;
    else out.push({ label, col, span: 1 });
  });
  return out;
}
