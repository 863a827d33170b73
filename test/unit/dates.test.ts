import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  isIsoDate,
  nextDayStartInMoscow,
  nightsBetween,
  nightsOf,
  rangesOverlap,
  todayInMoscow,
} from '../../schema/dates.ts';

describe('stay dates as YYYY-MM-DD strings', () => {
  it.each([
    ['2026-01-31', 1, '2026-02-01'],
    ['2026-02-28', 1, '2026-03-01'],
    ['2028-02-28', 1, '2028-02-29'],
    ['2028-02-29', 1, '2028-03-01'],
    ['2026-12-31', 1, '2027-01-01'],
    ['2027-01-01', -1, '2026-12-31'],
    ['2026-03-29', 1, '2026-03-30'],
    ['2026-10-25', 1, '2026-10-26'],
  ])('should move %s by %i day to %s (month and year ends, 29 February, old DST days)', (from, days, to) => {
    expect(addDays(from, days)).toBe(to);
  });

  it.each([
    ['2026-07-01', '2026-07-08', 7],
    ['2026-12-30', '2027-01-02', 3],
    ['2028-02-27', '2028-03-01', 3],
    ['2027-02-27', '2027-03-01', 2],
    ['2026-07-01', '2026-07-01', 0],
  ])('should count the nights from %s to %s as %i', (a, b, n) => {
    expect(nightsBetween(a, b)).toBe(n);
    expect(nightsOf(a, b)).toHaveLength(n);
  });

  it('should list the nights of a stay by their evenings, the departure day not included', () => {
    expect(nightsOf('2028-02-28', '2028-03-02')).toEqual(['2028-02-28', '2028-02-29', '2028-03-01']);
  });

  it('should let a stay end on the day another begins (check-out morning, check-in afternoon)', () => {
    expect(rangesOverlap('2026-07-01', '2026-07-05', '2026-07-05', '2026-07-09')).toBe(false);
    expect(rangesOverlap('2026-07-05', '2026-07-09', '2026-07-01', '2026-07-05')).toBe(false);
    expect(rangesOverlap('2026-07-01', '2026-07-06', '2026-07-05', '2026-07-09')).toBe(true);
    expect(rangesOverlap('2026-07-02', '2026-07-03', '2026-07-01', '2026-07-09')).toBe(true);
  });

  it.each(['2027-02-29', '2026-13-01', '2026-04-31', '2026-7-1', '2026-07-01T00:00', '', 20260701, null])(
    'should refuse %s as a date',
    (v) => {
      expect(isIsoDate(v)).toBe(false);
    },
  );

  it('should accept 29 February of a leap year', () => {
    expect(isIsoDate('2028-02-29')).toBe(true);
  });

  it('should take "today" in Moscow, not in UTC', () => {
    // 22:30 UTC on 31 December is already 1 January in Moscow (UTC+3).
    expect(todayInMoscow(Date.UTC(2026, 11, 31, 22, 30))).toBe('2027-01-01');
    expect(todayInMoscow(Date.UTC(2026, 11, 31, 20, 59))).toBe('2026-12-31');
  });

  it('should add months clamped to the month end', () => {
    expect(addMonths('2026-01-31', 1)).toBe('2026-02-28');
    expect(addMonths('2027-11-30', 3)).toBe('2028-02-29');
    expect(addMonths('2026-11-23', 12)).toBe('2027-11-23');
    expect(addMonths('2026-11-23', 18)).toBe('2028-05-23');
  });
});

describe('the moment the day turns in Moscow', () => {
  it('should be the next Moscow midnight, whatever the instant of the day', () => {
    for (const [at, turns] of [
      ['2026-11-26T02:50:00Z', '2026-11-26T21:00:00.000Z'],
      ['2026-11-25T21:00:00Z', '2026-11-26T21:00:00.000Z'],
      ['2026-11-25T20:59:59.999Z', '2026-11-25T21:00:00.000Z'],
      ['2026-12-31T23:30:00Z', '2027-01-01T21:00:00.000Z'],
    ] as const) {
      const next = nextDayStartInMoscow(Date.parse(at));
      expect(new Date(next).toISOString()).toBe(turns);
      expect(todayInMoscow(next)).toBe(addDays(todayInMoscow(Date.parse(at)), 1));
      expect(todayInMoscow(next - 1)).toBe(todayInMoscow(Date.parse(at)));
    }
  });
});
