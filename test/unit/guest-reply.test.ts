import { describe, expect, it } from 'vitest';
import { confirmationSubject, guestMessage, type GuestMessageBooking } from '../../schema/guest-message.ts';
import { guestReplyLinks, guestReplyText } from '../../site/lib/guest-reply.ts';

const place = {
  siteName: 'Каспий Домики',
  checkInTime: '14:00',
  checkOutTime: '12:00',
  address: 'Каспийск, ул. Приморская, 12',
};
const request: GuestMessageBooking = {
  id: 7,
  status: 'new',
  cabinName: 'Домик у моря',
  checkIn: '2026-12-20',
  checkOut: '2026-12-23',
  nights: 3,
  guests: 2,
  total: 37500,
  name: 'Мадина Гасанова',
};
/** Every no-break space as a plain one, to read the text as a person does. */
const plain = (s: string) => s.replace(/\u00a0/g, ' ');

describe('the owner’s message to a guest', () => {
  it('should tell a new request its number, cabin, dates, nights, guests and total, and promise no arrival details yet', () => {
    expect(plain(guestMessage(request, place))).toBe(
      [
        'Здравствуйте, Мадина!',
        'Получили вашу заявку №7, скоро подтвердим бронирование.',
        '«Домик у моря»: 20–23 декабря 2026, 3 ночи, 2 гостя.',
        'Итого: 37 500 ₽.',
        'Каспий Домики',
      ].join('\n'),
    );
  });

  it('should carry the payment link, its amount and when the held dates go free, for a request the owner asked to pay', () => {
    const held = {
      ...request,
      status: 'awaiting_payment',
      holdUntil: '2026-11-25T13:35:00.000Z',
      payment: {
        amount: 1125050,
        status: 'pending',
        confirmationUrl: 'https://yoomoney.ru/checkout/payments/v2/contract?orderId=2f1',
      },
    };
    expect(plain(guestMessage(held, place))).toBe(
      [
        'Здравствуйте, Мадина!',
        'Держим для вас даты по заявке №7, ждём предоплату.',
        '«Домик у моря»: 20–23 декабря 2026, 3 ночи, 2 гостя.',
        'Итого: 37 500 ₽.',
        'Предоплата 11 250,50 ₽, оплатить: https://yoomoney.ru/checkout/payments/v2/contract?orderId=2f1',
        'Даты держим до 16:35 по Москве, потом они снова станут свободными.',
        'Каспий Домики',
      ].join('\n'),
    );
    // A payment already made (or cancelled) is no longer offered.
    expect(guestMessage({ ...held, payment: { ...held.payment, status: 'succeeded' } }, place)).not.toContain(
      'оплатить:',
    );
  });

  it('should add the check-in and check-out times and the address once confirmed', () => {
    const text = plain(guestMessage({ ...request, status: 'confirmed' }, place));
    expect(text).toBe(
      [
        'Здравствуйте, Мадина!',
        'Ваше бронирование №7 подтверждено.',
        '«Домик у моря»: 20–23 декабря 2026, 3 ночи, 2 гостя.',
        'Итого: 37 500 ₽.',
        'Заезд с 14:00, выезд до 12:00.',
        'Адрес: Каспийск, ул. Приморская, 12.',
        'До встречи! Каспий Домики',
      ].join('\n'),
    );
    expect(confirmationSubject(7, 'Каспий Домики')).toBe('Бронирование №7 подтверждено — Каспий Домики');
  });

  it('should give a confirmed stay’s one-tap reply its number, dates, nights, total, check-in time and the guest’s page', () => {
    const token = 'a1'.repeat(18);
    const text = plain(
      guestReplyText({ ...request, status: 'confirmed', guestToken: token }, place, 'https://kaspiy.ru/'),
    );
    expect(text).toBe(
      [
        'Здравствуйте, Мадина!',
        'Ваше бронирование №7 подтверждено.',
        '«Домик у моря»: 20–23 декабря 2026, 3 ночи, 2 гостя.',
        'Итого: 37 500 ₽.',
        'Заезд с 14:00, выезд до 12:00.',
        'Адрес: Каспийск, ул. Приморская, 12.',
        `Страница бронирования (как добраться, оплата, отмена): https://kaspiy.ru/b/${token}`,
        'До встречи! Каспий Домики',
      ].join('\n'),
    );
  });

  it('should keep the guest’s page out of the replies before a stay is confirmed, and after it is cancelled', () => {
    const token = 'b2'.repeat(18);
    for (const status of ['new', 'awaiting_payment', 'declined', 'cancelled', 'expired']) {
      const b = { ...request, status, guestToken: token };
      expect(guestReplyText(b, place, 'https://kaspiy.ru')).toBe(guestMessage(b, place));
      expect(guestReplyText(b, place, 'https://kaspiy.ru')).not.toContain(token);
    }
  });

  it('should leave out an address the owner has not filled in, and greet a guest with no name', () => {
    const text = plain(guestMessage({ ...request, status: 'confirmed', name: ' ' }, { ...place, address: '' }));
    expect(text.startsWith('Здравствуйте!\n')).toBe(true);
    expect(text).not.toContain('Адрес');
  });
});

describe('the reply links of a request', () => {
  const text = 'Здравствуйте, Мадина!\nИтого: 37 500 ₽.';

  it('should open the guest’s own channel first, with the message, then the others', () => {
    const links = guestReplyLinks({ phone: '+7 928 123-45-67', channel: 'whatsapp' }, text);
    expect(links.map((l) => [l.label, l.chosen])).toEqual([
      ['WhatsApp', true],
      ['SMS', false],
      ['Telegram', false],
      ['Позвонить', false],
    ]);
    expect(links[0]!.href.startsWith('https://wa.me/79281234567?text=')).toBe(true);
    expect(new URL(links[0]!.href).searchParams.get('text')).toBe(text);
    expect(links[1]!.href).toBe(`sms:+79281234567?body=${encodeURIComponent(text)}`);
    expect(links[2]!.href).toBe('https://t.me/+79281234567');
    expect(links[3]!.href).toBe('tel:+79281234567');
  });

  it('should put Telegram or a call first when the guest chose it, and SMS for MAX (no link by phone)', () => {
    expect(guestReplyLinks({ phone: '8 916 765-43-21', channel: 'telegram' }, text)[0]).toMatchObject({
      way: 'telegram',
      chosen: true,
      href: 'https://t.me/+79167654321',
    });
    const call = guestReplyLinks({ phone: '8 916 765-43-21', channel: 'phone' }, text);
    expect(call.map((l) => l.way)).toEqual(['call', 'sms', 'whatsapp', 'telegram']);
    expect(call[0]).toMatchObject({ chosen: true, href: 'tel:+79167654321' });
    expect(guestReplyLinks({ phone: '8 916 765-43-21', channel: 'max' }, text)[0]).toMatchObject({
      way: 'sms',
      chosen: false,
    });
  });

  it('should offer nothing once the guest’s personal data is deleted', () => {
    expect(guestReplyLinks({ phone: '', channel: 'whatsapp' }, text)).toEqual([]);
  });
});
