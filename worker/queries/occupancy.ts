import { addDays, type IsoDate } from '../../schema/dates.ts';
import type { OccupancyAnswer, OccupancyRange } from '../../schema/search.ts';
import type { DatabasePort } from '../platform/ports.ts';
import { occupancyReads } from './search-reads.ts';
import { conflictsAmong } from '../calendar/conflicts.ts';
import { groupBy } from '../lib/group-by.ts';

type DbEnv = { DB: DatabasePort };

/**
 * The owner's chart («Шахматка»): every cabin, inactive ones too, against the nights of
 * [from, from + days), each range clipped to the window and marked by what holds it. New
 * requests are shown although they do not make a night busy, and the days a cabin waits for its cleaning. One query per kind of data, all in
 * one round trip (occupancyReads; the cabins kept while the data are unchanged).
 */
export async function occupancy(env: DbEnv, from: IsoDate, days: number): Promise<OccupancyAnswer> {
  const to = addDays(from, days);
  const { cabins: rows, busy, requests, cleanings } = await occupancyReads(env, from, to);
  const toClean = groupBy(cleanings, (t) => t.cabinId);
  const clip = (r: { start: IsoDate; end: IsoDate }) => ({
    start: r.start < from ? from : r.start,
    end: r.end > to ? to : r.end,
  });
  const ranges = new Map<number, OccupancyRange[]>(rows.map((c) => [c.id, []]));
  // Stays whose nights another stay also claims (an overbooking), in red on the chart.
  const clashing = new Set(conflictsAmong(busy).flatMap((c) => [`${c.cabinId}|${c.a.key}`, `${c.cabinId}|${c.b.key}`]));
  for (const r of busy) {
    const range: OccupancyRange =
      r.source === 'booking' || r.source === 'hold'
        ? { ...clip(r), kind: r.source, label: r.label, bookingId: r.id }
        : r.source === 'block'
          ? { ...clip(r), kind: 'block', label: r.label, blockId: r.id }
          : r.source === 'channel'
            ? { ...clip(r), kind: 'channel', label: r.label, guests: r.guests, price: r.price }
            : { ...clip(r), kind: 'feed', label: r.label };
    if (clashing.has(`${r.cabinId}|${r.key}`)) range.conflict = true;
    ranges.get(r.cabinId)?.push(range);
  }
  for (const r of requests)
    ranges.get(r.cabinId)?.push({ ...clip(r), kind: 'request', label: r.name, bookingId: r.id });
  return {
    from,
    days,
    cabins: rows.map((c) => ({
      ...c,
      ranges: ranges.get(c.id)!.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0)),
      cleaning: [...new Set((toClean.get(c.id) ?? []).map((t) => t.date))].sort(),
    })),
  };
}
