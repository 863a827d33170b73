import { describe, expect, it } from 'vitest';
import { priceStay } from '../../schema/payment-options.ts';
import {
  bookingMessage,
  bookingStay,
  contactMessage,
  nightsBetween,
  whatsappLink,
  whatsappNumber,
} from '../../site/lib/whatsapp.ts';

const NB = '\u00a0';
const cabin = { name: 'Домик у моря', pricePerNight: 12500, maxGuests: 4 };

/** The number and decoded text of a wa.me link. */
function decode(link: string): { number: string; text: string | null } {
  const url = new URL(link);
  expect(url.origin).toBe('https://wa.me');
  return { number: url.pathname.slice(1), text: url.searchParams.get('text') };
}

describe('whatsappNumber', () => {
  it('should keep only the digits of the phone', () => {
    expect(whatsappNumber('+7 (928) 555-12-34')).toBe('79285551234');
    expect(whatsappNumber('+7 928 555 12 34')).toBe('79285551234');
  });

  it('should turn a leading 8 of an 11-digit Russian number into 7', () => {
    expect(whatsappNumber('8 (928) 555-12-34')).toBe('79285551234');
    expect(whatsappNumber('89285551234')).toBe('79285551234');
  });

  it('should leave other numbers alone', () => {
    expect(whatsappNumber('+994 50 123 45 67')).toBe('994501234567');
    expect(whatsappNumber('8 800 555')).toBe('8800555');
    expect(whatsappNumber('')).toBe('');
  });
});

describe('whatsappLink', () => {
  it('should build a wa.me link with the encoded text', () => {
    const link = whatsappLink('+7 (928) 555-12-34', 'Привет & пока? 100% #1 + 2');
    expect(link.startsWith('https://wa.me/79285551234?text=')).toBe(true);
    expect(link.split('?text=')[1]).not.toMatch(/[ &#+%?]{2}|[ &#+?]/);
    expect(decode(link)).toEqual({ number: '79285551234', text: 'Привет & пока? 100% #1 + 2' });
  });

  it('should keep the message’s letters as they are, so the page carries a third of the bytes', () => {
    const link = whatsappLink('+7 928 555-12-34', 'Хочу забронировать «Бриз» (5 000 ₽ за ночь).');
    expect(link).toBe('https://wa.me/79285551234?text=Хочу%20забронировать%20«Бриз»%20(5%20000%20₽%20за%20ночь).');
    expect(decode(link).text).toBe('Хочу забронировать «Бриз» (5 000 ₽ за ночь).');
  });

  it('should leave out the text when there is none', () => {
    expect(whatsappLink('8 928 555 12 34')).toBe('https://wa.me/79285551234');
  });

  it('should encode line breaks', () => {
    const link = whatsappLink('79285551234', 'a\nb');
    expect(link).toBe('https://wa.me/79285551234?text=a%0Ab');
  });
});

describe('nightsBetween', () => {
  it('should count nights between two dates', () => {
    expect(nightsBetween('2026-07-01', '2026-07-04')).toBe(3);
    expect(nightsBetween('2026-02-27', '2026-03-02')).toBe(3);
    expect(nightsBetween('2026-12-31', '2027-01-01')).toBe(1);
  });

  it('should refuse a departure not after arrival, or invalid dates', () => {
    expect(nightsBetween('2026-07-04', '2026-07-04')).toBeNull();
    expect(nightsBetween('2026-07-04', '2026-07-01')).toBeNull();
    expect(nightsBetween('2026-02-30', '2026-03-02')).toBeNull();
    expect(nightsBetween('', '2026-03-02')).toBeNull();
  });
});

describe('bookingMessage', () => {
  it('should name the cabin and its price per night', () => {
    expect(bookingMessage(cabin)).toBe(
      `Здравствуйте! Хочу забронировать «Домик у моря» (12${NB}500${NB}₽ за ночь).\n` +
        'Подскажите, пожалуйста, какие даты свободны?',
    );
  });

  it('should add dates, nights and the total when the stay is valid', () => {
    const text = bookingMessage(cabin, { arrival: '2026-03-05', departure: '2026-03-08', guests: 2 });
    expect(text).toBe(
      [
        `Здравствуйте! Хочу забронировать «Домик у моря» (12${NB}500${NB}₽ за ночь).`,
        'Заезд: 5 марта 2026',
        'Выезд: 8 марта 2026',
        'Гостей: 2',
        `Итого за 3${NB}ночи: 37${NB}500${NB}₽`,
        'Подскажите, пожалуйста, свободны ли эти даты?',
      ].join('\n'),
    );
  });

  it('should name the children with their ages and the pets after the adults, and the children’s line', () => {
    const text = bookingMessage(cabin, {
      arrival: '2026-03-05',
      departure: '2026-03-08',
      guests: 2,
      childrenAges: [3, 9],
      pets: true,
      total: 37_500,
      lines: [
        { kind: 'nights', label: `12${NB}500${NB}₽ × 3${NB}ночи`, amount: 37_500 },
        { kind: 'children', label: `Дети до 5${NB}лет: 1`, amount: 0 },
      ],
    });
    expect(text.split('\n').slice(3, 7)).toEqual([
      'Гостей: 2',
      `Дети: 2${NB}ребёнка (возраст: 3, 9)`,
      'С животными',
      `Дети до 5${NB}лет: 1: бесплатно`,
    ]);
  });

  it("should carry the calendar's total when seasons price the nights", () => {
    const text = bookingMessage(cabin, { arrival: '2026-06-28', departure: '2026-07-02', guests: 2, total: 58_000 });
    expect(text).toContain(`Итого за 4${NB}ночи: 58${NB}000${NB}₽`);
    expect(
      bookingStay(cabin, { arrival: '2026-06-28', departure: '2026-07-02', guests: 2, total: 58_000 })?.total,
    ).toBe(58_000);
  });

  it('should name the cleaning fee and the tourist tax before the total, as the booking card shows them', () => {
    const lines = priceStay([{ start: '2026-03-05', end: '2026-03-08', nights: 3, pricePerNight: 12_500 }], {
      cleaningFee: 1500,
      touristTax: { enabled: true, ratePercent: 2, minPerNight: 100 },
    });
    const text = bookingMessage(cabin, {
      arrival: '2026-03-05',
      departure: '2026-03-08',
      guests: 2,
      total: lines.total,
      lines: lines.lines,
    });
    expect(text.split('\n').slice(4, 7)).toEqual([
      `Уборка: 1${NB}500${NB}₽`,
      `Туристический налог 2${NB}%: 750${NB}₽`,
      `Итого за 3${NB}ночи: 39${NB}750${NB}₽`,
    ]);
  });

  it('should use the right plural for the nights', () => {
    const one = bookingMessage(cabin, { arrival: '2026-06-01', departure: '2026-06-02', guests: 1 });
    expect(one).toContain(`Итого за 1${NB}ночь: 12${NB}500${NB}₽`);
    const five = bookingMessage(cabin, { arrival: '2026-06-01', departure: '2026-06-06', guests: 4 });
    expect(five).toContain(`Итого за 5${NB}ночей: 62${NB}500${NB}₽`);
    const d21 = bookingMessage(cabin, { arrival: '2026-06-01', departure: '2026-06-22', guests: 4 });
    expect(d21).toContain(`Итого за 21${NB}ночь: 262${NB}500${NB}₽`);
  });

  it('should leave out the stay when it is incomplete or invalid', () => {
    const plain = bookingMessage(cabin);
    expect(bookingMessage(cabin, { arrival: '2026-03-05', departure: '2026-03-08' })).toBe(plain);
    expect(bookingMessage(cabin, { arrival: '2026-03-08', departure: '2026-03-05', guests: 2 })).toBe(plain);
    expect(bookingMessage(cabin, { arrival: '2026-03-05', departure: '2026-03-05', guests: 2 })).toBe(plain);
    expect(bookingMessage(cabin, { arrival: '2026-03-05', departure: '2026-03-08', guests: 5 })).toBe(plain);
    expect(bookingMessage(cabin, { arrival: '2026-03-05', departure: '2026-03-08', guests: 0 })).toBe(plain);
    expect(bookingMessage(cabin, { arrival: '2026-03-05', departure: '2026-03-08', guests: 1.5 })).toBe(plain);
    expect(bookingMessage(cabin, { arrival: 'завтра', departure: '2026-03-08', guests: 2 })).toBe(plain);
  });

  it('should round-trip through a wa.me link', () => {
    const text = bookingMessage(cabin, { arrival: '2026-03-05', departure: '2026-03-08', guests: 4 });
    expect(decode(whatsappLink('+7 (928) 555-12-34', text)).text).toBe(text);
  });
});

describe('bookingStay', () => {
  it('should compute nights and total for a valid stay', () => {
    expect(bookingStay(cabin, { arrival: '2026-03-05', departure: '2026-03-08', guests: 4 })).toEqual({
      arrival: '2026-03-05',
      departure: '2026-03-08',
      guests: 4,
      nights: 3,
      total: 37500,
    });
  });

  it('should give null without details', () => {
    expect(bookingStay(cabin)).toBeNull();
    expect(bookingStay(cabin, { arrival: null, departure: null, guests: null })).toBeNull();
  });
});

describe('contactMessage', () => {
  it('should list name, e-mail, phone and message', () => {
    const link = whatsappLink(
      '+7 (928) 555-12-34',
      contactMessage({
        name: ' Ирина ',
        email: 'irina@example.ru',
        phone: '+7 900 000-00-00',
        message: 'Свободен ли домик на май?',
      }),
    );
    expect(decode(link).text).toBe(
      [
        'Здравствуйте! Сообщение с сайта.',
        'Имя: Ирина',
        'E-mail: irina@example.ru',
        'Телефон: +7 900 000-00-00',
        'Сообщение: Свободен ли домик на май?',
      ].join('\n'),
    );
  });

  it('should omit a blank phone', () => {
    const expected = [
      'Здравствуйте! Сообщение с сайта.',
      'Имя: Ирина',
      'E-mail: irina@example.ru',
      'Сообщение: Добрый день',
    ].join('\n');
    for (const phone of ['', '   ', null, undefined]) {
      expect(contactMessage({ name: 'Ирина', email: 'irina@example.ru', phone, message: 'Добрый день' })).toBe(
        expected,
      );
    }
  });
});
