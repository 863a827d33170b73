import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stayItems } from '../../worker/payments/receipts.ts';
import type { PriceLine } from '../../schema/payment-options.ts';

// The 54-ФЗ receipt of a stay: an item per line of its price, the accommodation less
// its discount and code as one, each extra as a service of its own, in kopecks that add up to
// exactly what is paid.

const stay = (lines: PriceLine[]) => ({
  email: 'a@example.ru',
  phone: '',
  checkIn: '2027-07-01',
  checkOut: '2027-07-04',
  total: lines.reduce((s, l) => s + l.amount, 0),
  lines,
});

describe('receipt items of a priced stay', () => {
  it('should give the accommodation less the code, then each extra and the fee, each its share of a part payment', () => {
    const lines: PriceLine[] = [
      { kind: 'nights', label: '5 000 ₽ × 3 ночи', amount: 15000 },
      { kind: 'promo', label: 'Промокод LETO 10 %', amount: -1500 },
      { kind: 'extra', label: 'Баня', amount: 2000 },
      { kind: 'fee', label: 'Уборка', amount: 1000 },
    ];
    expect(stayItems(stay(lines), 'Домик', 1_650_000)).toEqual([
      { description: 'Проживание: «Домик», 1–4 июля 2027', kopecks: 1_350_000 },
      { description: 'Баня', kopecks: 200_000 },
      { description: 'Уборка', kopecks: 100_000 },
    ]);
    expect(stayItems(stay(lines), 'Домик', 495_000).map((i) => i.kopecks)).toEqual([405_000, 60_000, 30_000]);
  });

  it('should always add up to exactly what is paid, with no item at zero or below', () => {
    const line = fc.record({
      kind: fc.constantFrom('nights', 'extraGuests', 'extra', 'fee', 'tax') as fc.Arbitrary<PriceLine['kind']>,
      label: fc.constantFrom('Баня', 'Уборка', 'Ночи'),
      amount: fc.integer({ min: 1, max: 200_000 }),
    });
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.double({ min: 0.01, max: 1, noNaN: true }),
        (lines, share) => {
          const s = stay(lines);
          const kopecks = Math.max(100, Math.round(s.total * 100 * share));
          const items = stayItems(s, 'Домик', kopecks);
          expect(items.reduce((sum, i) => sum + i.kopecks, 0)).toBe(kopecks);
          for (const i of items) expect(i.kopecks).toBeGreaterThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });
});
