import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  cancelTerms,
  DEFAULT_MESSAGES,
  messagesSchema,
  renderTemplate,
  type GuestPageAnswer,
} from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import {
  CancelActions,
  ChangeDates,
  DepositPay,
  MaxLink,
  PayRest,
  Review,
  TelegramLink,
} from '../../site/islands/GuestPage.tsx';
import { depositGuestText } from '../../schema/deposit-words.ts';
import {
  cancelArea,
  changeArea,
  depositArea,
  maxArea,
  payArea,
  reviewArea,
  telegramArea,
} from '../../worker/pages/guest-html.ts';

// The guest's page's rules that need no server: what a cancellation gives back, and the
// owner's templates as the guest reads them.

describe('cancellation terms', () => {
  const policy = { freeUntilDays: 7, keepPercent: 30 };
  const stay = { status: 'confirmed', checkIn: '2027-07-20', total: 40_000 };

  it('should give back everything paid up to the last free day, and keep the percentage of the total after it, never more than was paid', () => {
    expect(cancelTerms(policy, stay, 1_200_000, '2027-07-13')).toMatchObject({
      allowed: true,
      free: true,
      freeUntil: '2027-07-13',
      refund: 1_200_000,
      kept: 0,
    });
    // 30 % of 40 000 ₽ = 12 000 ₽ kept of 40 000 ₽ paid.
    expect(cancelTerms(policy, stay, 4_000_000, '2027-07-14')).toMatchObject({
      allowed: true,
      free: false,
      freeUntil: null,
      refund: 2_800_000,
      kept: 1_200_000,
    });
    // Only 5 000 ₽ paid: all of it kept, nothing back.
    expect(cancelTerms(policy, stay, 500_000, '2027-07-19')).toMatchObject({ allowed: true, refund: 0, kept: 500_000 });
  });

  it('should refuse on the day of arrival and after, and for a stay that no longer stands', () => {
    expect(cancelTerms(policy, stay, 0, '2027-07-20')).toMatchObject({
      allowed: false,
      reason: MSG.guestCancelArrived,
    });
    expect(cancelTerms(policy, { ...stay, status: 'cancelled' }, 0, '2027-07-01')).toMatchObject({
      allowed: false,
      reason: MSG.guestCancelAlready,
      refund: 0,
    });
    expect(cancelTerms(policy, { ...stay, status: 'declined' }, 0, '2027-07-01')).toMatchObject({
      allowed: false,
      reason: MSG.guestCancelStatus,
    });
  });
});

describe('message templates', () => {
  const facts = {
    name: 'Мадина Алиева',
    cabinName: 'Домик у моря',
    checkIn: '2027-07-10',
    checkOut: '2027-07-14',
    link: 'https://kaspiy.ru/b/abc',
  };

  it('should fill every placeholder: the first name, the cabin, the dates in Russian, the link', () => {
    const { subject, text } = renderTemplate(
      { subject: 'Скоро заезд: {домик}, {заезд}', body: '{имя}, ждём вас с {заезд} по {выезд}: {ссылка}' },
      facts,
    );
    expect(subject).toBe('Скоро заезд: Домик у моря, 10 июля 2027');
    expect(text).toBe('Мадина, ждём вас с 10 июля 2027 по 14 июля 2027: https://kaspiy.ru/b/abc');
  });

  it('should not wrap a name that has its own quotes in more of them', () => {
    const { subject } = renderTemplate(DEFAULT_MESSAGES.review, { ...facts, cabinName: 'Домик «Бриз» у воды' });
    expect(subject).toBe('Как вам отдых в Домик «Бриз» у воды?');
    expect(renderTemplate(DEFAULT_MESSAGES.review, facts).subject).toBe('Как вам отдых в «Домик у моря»?');
  });

  it('should refuse a template with a placeholder that does not exist, and take the defaults', () => {
    expect(messagesSchema.safeParse(DEFAULT_MESSAGES).success).toBe(true);
    const typo = messagesSchema.safeParse({
      ...DEFAULT_MESSAGES,
      reminder: { ...DEFAULT_MESSAGES.reminder, body: 'Ждём вас, {имя}! {сылка}' },
    });
    expect(typo.success).toBe(false);
    expect(typo.error?.issues[0]?.message).toBe(MSG.messagePlaceholderUnknown);
  });
});

describe("the page's buttons, written by the server and hydrated by the island", () => {
  const confirmed: GuestPageAnswer = {
    id: 12,
    status: 'confirmed',
    cabin: { id: 3, name: 'Домик у моря' },
    checkIn: '2027-07-20',
    checkOut: '2027-07-23',
    nights: 3,
    guests: 2,
    childrenAges: [],
    pets: false,
    lines: [{ kind: 'nights', label: '5 000 ₽ × 3 ночи', amount: 15000 }],
    total: 15000,
    paid: 450000,
    due: 1050000,
    canPay: true,
    cancel: {
      allowed: true,
      freeUntil: '2027-07-13',
      free: true,
      refund: 450000,
      kept: 0,
      policy: { freeUntilDays: 7, keepPercent: 30 },
    },
    refunded: 0,
    checkInTime: '14:00',
    checkOutTime: '12:00',
    canReview: false,
    reviewed: false,
  };
  const deposit: NonNullable<GuestPageAnswer['deposit']> = {
    id: null,
    mode: 'hold',
    amount: 5000,
    state: 'asked',
    label: 'Ждём залог',
    kept: null,
    reason: null,
    error: null,
    askFrom: '2027-07-19',
    releaseOn: null,
    canPay: true,
  };
  const pages: [string, GuestPageAnswer][] = [
    ['the rest to pay', confirmed],
    [
      'a payment started',
      {
        ...confirmed,
        status: 'awaiting_payment',
        canPay: false,
        pendingPayment: {
          amount: 450000,
          confirmationUrl: 'https://yoomoney.ru/checkout/payments/v2/contract?orderId=2f1a&x=1',
        },
      },
    ],
    [
      'nothing to pay, and cancelling refused',
      {
        ...confirmed,
        due: 0,
        canPay: false,
        cancel: { ...confirmed.cancel, allowed: false, reason: MSG.guestCancelArrived },
      },
    ],
    ['a request', { ...confirmed, status: 'new', paid: 0, canPay: false, cancel: { ...confirmed.cancel, refund: 0 } }],
    ['a Telegram bot to tie', { ...confirmed, telegram: { linked: false } }],
    ['a Telegram chat tied', { ...confirmed, telegram: { linked: true } }],
    ['a MAX bot to tie', { ...confirmed, max: { linked: false } }],
    ['a MAX dialog tied', { ...confirmed, max: { linked: true } }],
    ['a deposit to pay', { ...confirmed, deposit: { ...deposit, canPay: true } }],
    ['a deposit not yet due', { ...confirmed, deposit: { ...deposit, canPay: false } }],
    [
      'a deposit started',
      {
        ...confirmed,
        deposit: { ...deposit, state: 'pending', canPay: false, confirmationUrl: 'https://yoomoney.ru/x?a=1&b=2' },
      },
    ],
    [
      'a deposit held',
      { ...confirmed, deposit: { ...deposit, state: 'held', canPay: false, releaseOn: '2027-07-25' } },
    ],
    ['a paid deposit to pay', { ...confirmed, deposit: { ...deposit, mode: 'paid', canPay: true } }],
    ['a paid deposit not yet due', { ...confirmed, deposit: { ...deposit, mode: 'paid', canPay: false } }],
    ['dates that may be moved', { ...confirmed, change: { allowed: true, until: '2027-07-17', anyCabin: false } }],
    [
      'dates and cabin that may be moved',
      {
        ...confirmed,
        change: {
          allowed: true,
          until: '2027-07-17',
          anyCabin: true,
          cabins: [
            { id: 3, name: 'Домик у моря' },
            { id: 5, name: 'Лесной <дом> & баня' },
          ],
        },
      },
    ],
    [
      'dates no longer moved',
      {
        ...confirmed,
        change: {
          allowed: false,
          reason: 'Перенести даты можно до 17 июля 2027',
          until: '2027-07-17',
          anyCabin: false,
        },
      },
    ],
    [
      'a move waiting for its difference',
      {
        ...confirmed,
        change: {
          allowed: false,
          until: '2027-07-17',
          anyCabin: false,
          pending: {
            checkIn: '2027-07-22',
            checkOut: '2027-07-26',
            cabinId: 3,
            due: 500000,
            holdUntil: '2027-07-01T10:30:00.000Z',
            confirmationUrl: 'https://yoomoney.ru/x?c=1&d=2',
          },
        },
      },
    ],
  ];
  const api = '/api/guest/abc';

  // A difference would make React throw the server's markup away and draw its own: the page would flash.
  it.each(pages)('should be the same markup before and after the script: %s', async (_, page) => {
    expect(renderToString(createElement(PayRest, { page, api }))).toBe(await payArea(page));
    expect(renderToString(createElement(CancelActions, { page, api }))).toBe(await cancelArea(page));
    expect(renderToString(createElement(TelegramLink, { page, api }))).toBe(await telegramArea(page, api));
    expect(renderToString(createElement(DepositPay, { page, api }))).toBe(await depositArea(page));
    expect(renderToString(createElement(MaxLink, { page, api }))).toBe(await maxArea(page, api));
    expect(renderToString(createElement(ChangeDates, { page, api }))).toBe(await changeArea(page));
  });

  it('should offer the phone’s date fields while the dates may be moved, and the way to pay a move started', async () => {
    const at = (name: string) => pages.find(([n]) => n === name)![1];
    expect(await changeArea(at('dates that may be moved'))).toContain('name="checkIn"');
    // Only where the owner allows another cabin: «Домик», the booking's own chosen and first.
    expect(await changeArea(at('dates that may be moved'))).not.toContain('<select');
    const anyCabin = await changeArea(at('dates and cabin that may be moved'));
    expect(anyCabin).toContain(
      'Домик<select class="input" name="cabinId"><option value="3" selected="">Домик у моря</option><option value="5">Лесной &lt;дом&gt; &amp; баня</option></select>',
    );
    expect(await changeArea(at('dates no longer moved'))).toContain('Перенести даты можно до 17 июля 2027');
    const pending = await changeArea(at('a move waiting for its difference'));
    expect(pending).toContain('Перенос на 22–26 июля 2027 ждёт доплаты 5\u00a0000\u00a0₽ до 13:30');
    expect(pending).toContain('href="https://yoomoney.ru/x?c=1&amp;d=2"');
    expect(await changeArea(confirmed)).toBe('');
  });

  it('should offer «Внести залог» only on its day, the way back to a hold started, and say where the deposit stands', async () => {
    const at = (name: string) => pages.find(([n]) => n === name)![1];
    expect(await depositArea(at('a deposit to pay'))).toContain('Внести залог 5 000 ₽');
    expect(await depositArea(at('a deposit not yet due'))).toBe('');
    expect(await depositArea(at('a deposit started'))).toContain('href="https://yoomoney.ru/x?a=1&amp;b=2"');
    expect(await depositArea(at('a deposit held'))).toBe('');
    expect(depositGuestText(at('a deposit not yet due').deposit!)).toBe(
      'Залог 5 000 ₽ блокируется на карте и не списывается. Внести его можно с 19.07 и до заезда.',
    );
    expect(depositGuestText(at('a deposit held').deposit!)).toContain(
      'Блокировка снимется после выезда, не позже 25.07.',
    );
    expect(depositGuestText({ ...deposit, state: 'kept', kept: 1500, reason: 'Разбита кружка' })).toBe(
      'Из залога удержано 1 500 ₽: Разбита кружка. Остальное вернулось на карту.',
    );
  });

  it('should tell a guest before paying that a paid deposit is charged and comes back after departure', async () => {
    const at = (name: string) => pages.find(([n]) => n === name)![1];
    const area = await depositArea(at('a paid deposit to pay'));
    expect(area).toContain('Оплатить залог 5 000 ₽');
    expect(area).not.toContain('Внести залог');
    expect(depositGuestText(at('a paid deposit to pay').deposit!)).toBe(
      'Залог 5 000 ₽ списывается с карты и возвращается после выезда, в течение 2 дней.',
    );
    expect(depositGuestText(at('a paid deposit not yet due').deposit!)).toBe(
      'Залог 5 000 ₽ списывается с карты и возвращается после выезда, в течение 2 дней. Внести его можно с 19.07 и до заезда.',
    );
    // The hold's words never say «списывается»: the guest can tell which one it is.
    expect(depositGuestText(at('a deposit to pay').deposit!)).toContain('не списывается');
    const paid = { ...deposit, mode: 'paid' as const, canPay: false };
    expect(depositGuestText({ ...paid, state: 'held', releaseOn: '2027-07-25' })).toBe(
      'Залог 5 000 ₽ оплачен. Он вернётся на карту после выезда, не позже 25.07.',
    );
    expect(depositGuestText({ ...paid, state: 'released' })).toBe('Залог 5 000 ₽ возвращён на карту.');
    expect(depositGuestText({ ...paid, state: 'kept', kept: 1500, reason: 'Разбита кружка' })).toBe(
      'Из залога удержано 1 500 ₽: Разбита кружка. Остальное вернулось на карту.',
    );
    expect(depositGuestText({ ...paid, state: 'kept', kept: 5000, reason: 'Сломана дверь' })).toBe(
      'Залог 5 000 ₽ удержан: Сломана дверь.',
    );
  });

  it('should offer the Telegram link as a plain form to the link route, with the consent it gives beside it', async () => {
    const area = await telegramArea(pages[4]![1], api);
    expect(area).toContain('<form class="guest__actions" action="/api/guest/abc/link/telegram" method="post">');
    expect(area).toContain('Получать сообщения в Telegram');
    expect(area).toContain('за пределами России');
    expect(await telegramArea(pages[5]![1], api)).toContain('«стоп»');
    expect(await telegramArea(confirmed, api)).toBe('');
  });

  it("should show the review form's placeholder until the form's script has come, as the server does", async () => {
    expect(renderToString(createElement(Review, { token: 'abc' }))).toBe(await reviewArea());
  });

  it('should offer «Оплатить остаток» with the amount left, and the way back to a payment started', async () => {
    expect(await payArea(confirmed)).toContain('Оплатить остаток 10\u00a0500\u00a0₽');
    expect(await payArea(pages[1]![1])).toContain('Вернуться к оплате');
    expect(await payArea(pages[2]![1])).toBe('');
  });
});
