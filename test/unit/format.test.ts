import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FORMS,
  formatBathrooms,
  formatBedrooms,
  formatStayDates,
  formatDate,
  formatGuests,
  formatNights,
  formatNumber,
  formatObjects,
  formatPrice,
  formatPricePerNight,
  formatReviews,
  parseCalendarDate,
  plural,
} from '../../schema/format.ts';

const NB = '\u00a0';

describe('formatPrice', () => {
  it('should group digits with no-break spaces and add the ruble sign', () => {
    expect(formatPrice(12500)).toBe(`12${NB}500${NB}₽`);
    expect(formatPrice(1500)).toBe(`1${NB}500${NB}₽`);
    expect(formatPrice(1234567)).toBe(`1${NB}234${NB}567${NB}₽`);
    expect(formatPrice(900)).toBe(`900${NB}₽`);
    expect(formatPrice(0)).toBe(`0${NB}₽`);
  });

  it('should never contain a breakable or narrow space', () => {
    for (const n of [1000, 45000, 999999, 10000000]) expect(formatPrice(n)).not.toMatch(/[ \u202f\u2009]/);
  });

  it('should round to whole rubles', () => {
    expect(formatNumber(4999.6)).toBe(`5${NB}000`);
  });

  it('should group every whole number exactly as ru-RU does, with no-break spaces, and write a rounded zero as 0', () => {
    const ru = new Intl.NumberFormat('ru-RU', { maximumFractionDigits: 0, useGrouping: true });
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(formatNumber(n)).toBe(ru.format(n).replace(/[\s\u202f\u00a0]/g, NB));
      }),
      { numRuns: 2000 },
    );
    expect(formatNumber(-0.4)).toBe('0');
  });

  it('should format the admin price per night', () => {
    expect(formatPricePerNight(3500)).toBe(`3${NB}500${NB}₽/ночь`);
  });
});

describe('formatDate', () => {
  it('should write a calendar date in Russian without «г.»', () => {
    expect(formatDate('2026-03-05')).toBe('5 марта 2026');
    expect(formatDate('2025-01-31')).toBe('31 января 2025');
    expect(formatDate('2025-05-01')).toBe('1 мая 2025');
    expect(formatDate('2024-12-09')).toBe('9 декабря 2024');
  });

  it('should use every month in the genitive', () => {
    const months = Array.from(
      { length: 12 },
      (_, i) => formatDate(`2026-${String(i + 1).padStart(2, '0')}-10`).split(' ')[1],
    );
    expect(months).toEqual([
      'января',
      'февраля',
      'марта',
      'апреля',
      'мая',
      'июня',
      'июля',
      'августа',
      'сентября',
      'октября',
      'ноября',
      'декабря',
    ]);
  });

  it('should date an instant by Moscow time', () => {
    expect(formatDate('2026-03-05T12:00:00.000Z')).toBe('5 марта 2026');
    // 22:30 UTC is already 01:30 the next day in Moscow.
    expect(formatDate('2026-03-05T22:30:00.000Z')).toBe('6 марта 2026');
    expect(formatDate('2025-12-31T21:00:00Z')).toBe('1 января 2026');
    expect(formatDate(new Date('2026-07-15T08:00:00Z'))).toBe('15 июля 2026');
    expect(formatDate(Date.UTC(2026, 6, 15, 8))).toBe('15 июля 2026');
  });

  it('should give an empty string for an unreadable date', () => {
    expect(formatDate('вчера')).toBe('');
    expect(formatDate(Number.NaN)).toBe('');
  });
});

describe('parseCalendarDate', () => {
  it('should read real dates and refuse impossible ones', () => {
    expect(parseCalendarDate('2028-02-29')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(parseCalendarDate('2026-02-29')).toBeNull();
    expect(parseCalendarDate('2026-13-01')).toBeNull();
    expect(parseCalendarDate('5.03.2026')).toBeNull();
    expect(parseCalendarDate('')).toBeNull();
  });
});

describe('plural', () => {
  const cases: [number, string][] = [
    [0, 'спален'],
    [1, 'спальня'],
    [2, 'спальни'],
    [4, 'спальни'],
    [5, 'спален'],
    [11, 'спален'],
    [12, 'спален'],
    [14, 'спален'],
    [21, 'спальня'],
    [22, 'спальни'],
    [25, 'спален'],
    [101, 'спальня'],
    [111, 'спален'],
    [112, 'спален'],
    [122, 'спальни'],
  ];

  it.each(cases)('should pick the right form for %i', (n, word) => {
    expect(plural(n, ['спальня', 'спальни', 'спален'])).toBe(word);
  });

  it('should use the «few» form for fractions', () => {
    expect(plural(1.5, FORMS.bedrooms)).toBe('спальни');
  });

  const table: [number, string, string, string, string, string, string][] = [
    [1, 'спальня', 'ванная', 'гость', 'объект', 'ночь', 'отзыв'],
    [2, 'спальни', 'ванные', 'гостя', 'объекта', 'ночи', 'отзыва'],
    [5, 'спален', 'ванных', 'гостей', 'объектов', 'ночей', 'отзывов'],
    [11, 'спален', 'ванных', 'гостей', 'объектов', 'ночей', 'отзывов'],
    [12, 'спален', 'ванных', 'гостей', 'объектов', 'ночей', 'отзывов'],
    [14, 'спален', 'ванных', 'гостей', 'объектов', 'ночей', 'отзывов'],
    [21, 'спальня', 'ванная', 'гость', 'объект', 'ночь', 'отзыв'],
    [22, 'спальни', 'ванные', 'гостя', 'объекта', 'ночи', 'отзыва'],
    [25, 'спален', 'ванных', 'гостей', 'объектов', 'ночей', 'отзывов'],
    [101, 'спальня', 'ванная', 'гость', 'объект', 'ночь', 'отзыв'],
    [111, 'спален', 'ванных', 'гостей', 'объектов', 'ночей', 'отзывов'],
  ];

  it.each(table)('should count %i with every helper', (n, bed, bath, guest, obj, night, review) => {
    expect(formatBedrooms(n)).toBe(`${n}${NB}${bed}`);
    expect(formatBathrooms(n)).toBe(`${n}${NB}${bath}`);
    expect(formatGuests(n)).toBe(`${n}${NB}${guest}`);
    expect(formatObjects(n)).toBe(`${n}${NB}${obj}`);
    expect(formatNights(n)).toBe(`${n}${NB}${night}`);
    expect(formatReviews(n)).toBe(`${n}${NB}${review}`);
  });
});

describe('formatStayDates', () => {
  it('should write a stay within a month, across months and across a new year', () => {
    expect(formatStayDates('2027-03-05', '2027-03-08')).toBe('5–8 марта 2027');
    expect(formatStayDates('2027-03-30', '2027-04-02')).toBe('30 марта — 2 апреля 2027');
    expect(formatStayDates('2026-12-30', '2027-01-03')).toBe('30 декабря 2026 — 3 января 2027');
  });
});
