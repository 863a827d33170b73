import { describe, expect, it } from 'vitest';
import {
  busyNights,
  dayHead,
  monthSpans,
  placeRanges,
  type OccupancyRange,
} from '../../site/admin/calendar/occupancy.ts';

const range = (start: string, end: string, kind: OccupancyRange['kind'], label = ''): OccupancyRange => ({
  start,
  end,
  kind,
  label,
});

describe('«Шахматка»: where each range sits on a cabin’s row', () => {
  it('should keep busy ranges on the top lane and put a request that overlaps them below, so none hides another', () => {
    const block = range('2026-12-03', '2026-12-06', 'block', 'Ремонт');
    const request = range('2026-12-05', '2026-12-08', 'request', 'Игорь');
    const stay = range('2026-12-10', '2026-12-12', 'booking', 'Мадина');
    const { placed, lanes } = placeRanges([request, stay, block], '2026-12-01', 14);
    expect(lanes).toBe(2);
    expect(placed.map((p) => [p.range.label, p.col, p.span, p.lane])).toEqual([
      ['Ремонт', 2, 3, 0],
      ['Мадина', 9, 2, 0],
      ['Игорь', 4, 3, 1],
    ]);
  });

  it('should clip a range to the window and leave one outside it out', () => {
    const { placed, lanes } = placeRanges(
      [range('2026-11-28', '2026-12-03', 'feed', 'Авито'), range('2026-12-20', '2026-12-22', 'block')],
      '2026-12-01',
      14,
    );
    expect(lanes).toBe(1);
    expect(placed.map((p) => [p.range.label, p.col, p.span])).toEqual([['Авито', 0, 2]]);
  });

  it('should count a request’s nights as free for closing, and the others as busy', () => {
    const busy = busyNights([
      range('2026-12-03', '2026-12-05', 'booking'),
      range('2026-12-07', '2026-12-08', 'request'),
    ]);
    expect([...busy]).toEqual(['2026-12-03', '2026-12-04']);
  });

  it('should head the columns with the weekday and the months they cross', () => {
    expect(dayHead('2026-12-05')).toEqual({ day: 5, weekday: 'сб', weekend: true });
    expect(dayHead('2026-12-07')).toEqual({ day: 7, weekday: 'пн', weekend: false });
    expect(monthSpans('2026-11-25', 14)).toEqual([
      { label: 'Ноябрь 2026', col: 0, span: 6 },
      { label: 'Декабрь 2026', col: 6, span: 8 },
    ]);
  });
});
