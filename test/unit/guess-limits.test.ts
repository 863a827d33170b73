import { describe, expect, it } from 'vitest';
import { LOGIN_THROTTLE, PROMO_THROTTLE } from '../../schema/constants.ts';
import { addressKey } from '../../worker/lib/client-ip.ts';
import { guessWaitMs } from '../../worker/queries/rate-limit.ts';

// What the guessing limits count a visitor by, and how long a guess waits after wrong ones.

describe('addressKey', () => {
  it.each([
    ['an IPv4 address as it is', '203.0.113.7', '203.0.113.7'],
    ['an IPv4 address written as IPv6 as the IPv4 one', '::ffff:203.0.113.7', '203.0.113.7'],
    ['an IPv6 address by its /64', '2001:db8:5:7:ffff:1:2:3', '2001:db8:5:7::/64'],
    ['an IPv6 address written in full the same', '2001:0db8:0005:0007:0000:0000:0000:0001', '2001:db8:5:7::/64'],
    ['an unreadable address as it came', 'unknown', 'unknown'],
  ])('should key %s', (_, ip, key) => {
    expect(addressKey(ip)).toBe(key);
  });

  it('should tell two /64s apart', () => {
    expect(addressKey('2001:db8:5:7::1')).not.toBe(addressKey('2001:db8:5:8::1'));
  });
});

describe('guessWaitMs', () => {
  it('should not wait within the free guesses, then double each wait up to the longest', () => {
    for (const s of [...Object.values(LOGIN_THROTTLE), PROMO_THROTTLE]) {
      expect(guessWaitMs(s, s.free - 1)).toBe(0);
      expect(guessWaitMs(s, s.free)).toBe(s.firstWaitMs);
      expect(guessWaitMs(s, s.free + 1)).toBe(2 * s.firstWaitMs);
      expect(guessWaitMs(s, s.free + 1000)).toBe(s.maxWaitMs);
      // A count outlives the longest wait, or the wait's end would hand the free guesses back.
      expect(s.maxWaitMs).toBeLessThan(s.forgetMs);
    }
  });
});
