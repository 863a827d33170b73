import { describe, expect, it } from 'vitest';
import { smsGuestText, smsPhone, smsSegments } from '../../schema/sms.ts';

// What an SMS costs is counted in parts (schema/sms.ts): Cyrillic goes as UCS-2, 70 characters in
// one message and 67 a part once longer; Latin text by GSM's alphabet, 160 and 153.
describe('smsSegments', () => {
  it('should count Cyrillic text in parts of 70, then 67', () => {
    expect(smsSegments('')).toMatchObject({ parts: 0 });
    expect(smsSegments('я'.repeat(70))).toEqual({ encoding: 'ucs2', length: 70, parts: 1 });
    expect(smsSegments('я'.repeat(71))).toEqual({ encoding: 'ucs2', length: 71, parts: 2 });
    expect(smsSegments('я'.repeat(134))).toMatchObject({ parts: 2 });
    expect(smsSegments('я'.repeat(135))).toMatchObject({ parts: 3 });
    expect(smsSegments('я'.repeat(201))).toMatchObject({ parts: 3 });
    expect(smsSegments('я'.repeat(202))).toMatchObject({ parts: 4 });
  });

  it('should make the whole message UCS-2 for one Cyrillic letter, and count Latin text in parts of 160, then 153', () => {
    expect(smsSegments(`${'a'.repeat(100)}ж`)).toMatchObject({ encoding: 'ucs2', parts: 2 });
    expect(smsSegments('a'.repeat(160))).toEqual({ encoding: 'gsm', length: 160, parts: 1 });
    expect(smsSegments('a'.repeat(161))).toMatchObject({ encoding: 'gsm', parts: 2 });
    expect(smsSegments('a'.repeat(306))).toMatchObject({ parts: 2 });
    expect(smsSegments('a'.repeat(307))).toMatchObject({ parts: 3 });
    // An extension character (€, [, ]) takes two places.
    expect(smsSegments('€'.repeat(80))).toEqual({ encoding: 'gsm', length: 160, parts: 1 });
  });
});

describe('smsPhone', () => {
  it('should write a Russian number as 7 and ten digits, and refuse what is no number', () => {
    expect(smsPhone('+7 (928) 555-12-34')).toBe('79285551234');
    expect(smsPhone('8 928 555 12 34')).toBe('79285551234');
    expect(smsPhone('9285551234')).toBe('79285551234');
    expect(smsPhone('+374 10 123456')).toBe('37410123456');
    expect(smsPhone('')).toBeUndefined();
    expect(smsPhone('12-34')).toBeUndefined();
  });
});

describe('smsGuestText', () => {
  it('should say only the cabin, the dates and the page’s link, in three parts at most', () => {
    const { text } = smsGuestText(
      'reminder',
      {
        cabinName: 'Очень длинное название домика у самого синего моря',
        checkIn: '2027-07-12',
        checkOut: '2027-07-15',
        guestToken: 'AbCdEfGhIjKlMnOpQrStUvWx',
      },
      'https://kaspiy.ru',
    );
    expect(text).toBe(
      'Скоро заезд: «Очень длинное название домика…», 12–15 июля 2027. Всё о брони: https://kaspiy.ru/b/AbCdEfGhIjKlMnOpQrStUvWx',
    );
    expect(smsSegments(text).parts).toBeLessThanOrEqual(3);
  });
});
