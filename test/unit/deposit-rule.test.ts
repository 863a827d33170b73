import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../schema/defaults.ts';
import { depositStateOf } from '../../schema/deposits.ts';
import { resolveSettings } from '../../schema/settings.ts';
import type { Deposit } from '../../schema/tables.ts';
import { depositRuleOf } from '../../worker/payments/deposits.ts';

// Which deposit a stay is asked: a hold where one lasts and the shop takes holds, else the owner's
// choice (none, or one paid and refunded after departure); and where a paid one stands.

const settings = (deposit: Partial<(typeof DEFAULT_SETTINGS)['deposit']> = {}) => ({
  deposit: { ...DEFAULT_SETTINGS.deposit, ...deposit },
});
const short = { checkIn: '2027-07-20', checkOut: '2027-07-23' };
/** 10 nights: arrival + stay + 2 days is past ЮKassa's 7-day hold. */
const long = { checkIn: '2027-07-20', checkOut: '2027-07-30' };

describe('the deposit a stay is asked', () => {
  it('should keep today’s behaviour by default: a hold for a short stay, none for a long one', () => {
    expect(depositRuleOf(short, 5000, settings())).toMatchObject({ mode: 'hold', amount: 5000 });
    expect(depositRuleOf(long, 5000, settings())).toBeNull();
    expect(depositRuleOf(short, 0, settings({ withoutHold: 'paid' }))).toBeNull();
  });

  it('should ask a paid deposit where a hold cannot be used and the owner chose one', () => {
    expect(depositRuleOf(long, 5000, settings({ withoutHold: 'paid' }))).toEqual({
      amount: 5000,
      mode: 'paid',
      askFrom: '2027-07-19',
      releaseOn: '2027-08-01',
    });
    // A shop without holds: even a short stay.
    expect(depositRuleOf(short, 5000, settings({ shopHolds: false, withoutHold: 'paid' }))).toMatchObject({
      mode: 'paid',
    });
    expect(depositRuleOf(short, 5000, settings({ shopHolds: false, withoutHold: 'none' }))).toBeNull();
  });

  it('should read deposit settings stored before the choice existed with its defaults', () => {
    const stored = resolveSettings({ deposit: { askDaysBefore: 3 } as never });
    expect(stored.deposit).toEqual({ askDaysBefore: 3, shopHolds: true, withoutHold: 'none' });
  });

  it('should say where a paid deposit stands from its decision and its refund', () => {
    const paid: Pick<Deposit, 'status' | 'decision' | 'error' | 'mode' | 'amount' | 'keptAmount' | 'refundStatus'> = {
      mode: 'paid',
      status: 'succeeded',
      amount: 500000,
      decision: null,
      keptAmount: null,
      error: null,
      refundStatus: null,
    };
    expect(depositStateOf(paid)).toBe('held');
    expect(depositStateOf({ ...paid, decision: 'release' })).toBe('releasing');
    expect(depositStateOf({ ...paid, decision: 'release', refundStatus: 'succeeded' })).toBe('released');
    expect(depositStateOf({ ...paid, decision: 'release', error: 'ЮKassa не ответила' })).toBe('failed');
    expect(depositStateOf({ ...paid, decision: 'release', refundStatus: 'canceled' })).toBe('failed');
    expect(depositStateOf({ ...paid, decision: 'keep', keptAmount: 150000 })).toBe('keeping');
    expect(depositStateOf({ ...paid, decision: 'keep', keptAmount: 150000, refundStatus: 'succeeded' })).toBe('kept');
    // All of it kept: nothing to refund, done at once.
    expect(depositStateOf({ ...paid, decision: 'keep', keptAmount: 500000 })).toBe('kept');
    // A hold succeeded is a part captured.
    expect(depositStateOf({ ...paid, mode: 'hold', decision: 'keep', keptAmount: 150000 })).toBe('kept');
  });
});
