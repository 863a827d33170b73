import { BOOKING_CHANNEL_LABELS, type BookingChannel } from '../../schema/bookings.ts';
import type { Booking, Review } from '../../schema/tables.ts';
import { formatChildren, formatDate, formatPrice } from '../../schema/format.ts';
import { formatKopecks } from '../../schema/payment-options.ts';
import type { OwnerNotice } from './owner.ts';

const stars = (n: number) => '★'.repeat(n) + '☆'.repeat(Math.max(0, 5 - n));

/** A new review waiting for moderation; the text is the visitor's own, sent as plain text. */
export function reviewNotice(
  review: Pick<Review, 'id' | 'name' | 'email' | 'rating' | 'comment'> & Partial<Pick<Review, 'bookingId'>>,
  siteUrl?: string,
): OwnerNotice {
  const lines = [`${review.name} <${review.email}>`, stars(review.rating), '', review.comment];
  // Sent through the link after departure: the owner knows whose stay it is about.
  if (review.bookingId) lines.splice(2, 0, `Гость проживал(а): бронирование №${review.bookingId}`);
  if (siteUrl) lines.push('', `Одобрить или скрыть: ${siteUrl.replace(/\/$/, '')} → админ-панель → «Отзывы»`);
  return { subject: `Новый отзыв №${review.id} ждёт модерации`, text: lines.join('\n') };
}

/** A new booking request: everything the owner needs to call the guest back. */
export function bookingNotice(
  b: Pick<
    Booking,
    'id' | 'checkIn' | 'checkOut' | 'nights' | 'guests' | 'total' | 'name' | 'phone' | 'email' | 'comment' | 'channel'
  > &
    Partial<Pick<Booking, 'childrenAges' | 'pets'>>,
  cabinName: string,
  siteUrl?: string,
  /** 'awaiting_payment': a booking with prepayment whose guest is on the payment page now. */
  status?: 'awaiting_payment',
): OwnerNotice {
  const lines = [
    `«${cabinName}»`,
    `Заезд: ${formatDate(b.checkIn)}`,
    `Выезд: ${formatDate(b.checkOut)}`,
    `Ночей: ${b.nights}, гостей: ${b.guests}`,
    ...(b.childrenAges?.length ? [`Дети: ${formatChildren(b.childrenAges)}`] : []),
    ...(b.pets ? ['С животными'] : []),
    `Итого: ${formatPrice(b.total)}`,
    '',
    `${b.name}, ${b.phone}${b.email ? `, ${b.email}` : ''}`,
    `Связь: ${BOOKING_CHANNEL_LABELS[b.channel as BookingChannel] ?? b.channel}`,
  ];
  if (b.comment) lines.push('', b.comment);
  if (status === 'awaiting_payment') {
    lines.push(
      '',
      'Гость перешёл к предоплате: даты держатся за ним, пока он платит. Бронирование подтвердится само, когда придёт оплата.',
    );
    if (siteUrl) lines.push('', `Подробности: ${siteUrl.replace(/\/$/, '')} → админ-панель → «Заявки»`);
    return {
      subject: `Новое бронирование №${b.id} ждёт оплаты: ${formatDate(b.checkIn)} — ${formatDate(b.checkOut)}`,
      text: lines.join('\n'),
    };
  }
  if (siteUrl) lines.push('', `Подтвердить или отклонить: ${siteUrl.replace(/\/$/, '')} → админ-панель → «Заявки»`);
  return {
    subject: `Новая заявка №${b.id}: ${formatDate(b.checkIn)} — ${formatDate(b.checkOut)}`,
    text: lines.join('\n'),
  };
}

type StayFacts = Pick<Booking, 'id' | 'checkIn' | 'checkOut' | 'nights' | 'guests' | 'total' | 'name' | 'phone'>;
const stayLines = (b: StayFacts, cabinName: string) => [
  `«${cabinName}»: ${formatDate(b.checkIn)} — ${formatDate(b.checkOut)}, ночей: ${b.nights}, гостей: ${b.guests}`,
  `Итого за проживание: ${formatPrice(b.total)}`,
  ...(b.phone ? [`${b.name}, ${b.phone}`] : []),
];
const toPanel = (siteUrl?: string) =>
  siteUrl ? ['', `Подробности: ${siteUrl.replace(/\/$/, '')} → админ-панель → «Заявки»`] : [];

/** A prepayment came in: the booking is confirmed by itself. */
export function paidNotice(b: StayFacts, cabinName: string, kopecks: number, siteUrl?: string): OwnerNotice {
  return {
    subject: `Оплачена предоплата ${formatKopecks(kopecks)}: бронирование №${b.id} подтверждено`,
    text: [...stayLines(b, cabinName), `Предоплата: ${formatKopecks(kopecks)}`, ...toPanel(siteUrl)].join('\n'),
  };
}

/** A hold ran out unpaid: its nights are free again. */
export function holdExpiredNotice(b: StayFacts, cabinName: string, siteUrl?: string): OwnerNotice {
  return {
    subject: `Бронь №${b.id} истекла: предоплата не поступила, даты снова свободны`,
    text: [...stayLines(b, cabinName), ...toPanel(siteUrl)].join('\n'),
  };
}

/** ЮKassa refused a guest's deposit: the shop has no two-stage payments, which only the owner can switch on. */
export function depositHoldsOffNotice(b: StayFacts, cabinName: string, siteUrl?: string): OwnerNotice {
  return {
    subject: `Гость по брони №${b.id} не смог внести залог: ЮKassa не принимает блокировки`,
    text: [
      ...stayLines(b, cabinName),
      'ЮKassa ответила, что в магазине не включены двухстадийные платежи (холдирование). Включите их в личном кабинете ЮKassa или уберите залог в карточке домика.',
      'Можно и без холдирования: в «Настройки» → «Бронирование и оплата» снимите отметку «В магазине ЮKassa включены двухстадийные платежи» и выберите «Залог оплачивается и возвращается после выезда».',
      ...toPanel(siteUrl),
    ].join('\n'),
  };
}

/** A payment that came after its hold ran out (or the nights were taken meanwhile) was refunded by itself. */
export function lateRefundNotice(b: StayFacts, cabinName: string, kopecks: number, siteUrl?: string): OwnerNotice {
  return {
    subject: `Оплата по брони №${b.id} пришла после окончания брони: ${formatKopecks(kopecks)} возвращены гостю`,
    text: [
      ...stayLines(b, cabinName),
      'Даты не были за гостем, поэтому предоплата возвращена автоматически. Свяжитесь с гостем, если даты ещё свободны.',
      ...toPanel(siteUrl),
    ].join('\n'),
  };
}

/**
 * The guest's e-mail about a payment given back by itself: the prepayment that came after the
 * hold ran out (or after the booking was cancelled), or the rest paid after the booking was cancelled.
 */
export function lateRefundGuestMail(
  b: StayFacts & { status: string },
  cabinName: string,
  kopecks: number,
  siteName: string,
  paid: 'prepayment' | 'balance' | 'change' = 'prepayment',
): OwnerNotice {
  const stay = `№${b.id} («${cabinName}», ${formatDate(b.checkIn)} — ${formatDate(b.checkOut)})`;
  const came =
    paid === 'change'
      ? `Доплата за перенос брони ${stay} пришла, когда время на неё уже истекло или новые даты заняли. Бронь осталась на прежних датах.`
      : paid === 'balance'
        ? `Оплата остатка по брони ${stay} пришла, когда бронь была уже отменена.`
        : b.status === 'cancelled'
          ? `Оплата по брони ${stay} пришла, когда бронь была уже отменена.`
          : `Оплата по брони ${stay} пришла, когда время брони уже истекло, и даты не удалось закрепить за вами.`;
  return {
    subject: `Оплата возвращена: бронирование №${b.id}${siteName.trim() ? ` — ${siteName.trim()}` : ''}`,
    text: [
      b.name ? `Здравствуйте, ${b.name.trim().split(/\s+/)[0]}!` : 'Здравствуйте!',
      came,
      `Мы вернули ${paid === 'prepayment' ? 'предоплату' : 'этот платёж'} ${formatKopecks(kopecks)} на вашу карту или счёт: обычно деньги приходят в течение нескольких дней.`,
      paid !== 'prepayment'
        ? 'Если это ошибка или остались вопросы, напишите нам.'
        : 'Если хотите, забронируйте другие даты на сайте или напишите нам.',
      siteName.trim(),
    ]
      .filter(Boolean)
      .join('\n'),
  };
}

/** A guest wrote in a messenger: who, about which stay, and their words, to answer in «Сообщения». */
export function guestMessageNotice(
  b: { id: number; name: string; cabinName: string; checkIn: string; checkOut: string },
  channel: string,
  text: string,
  siteUrl?: string,
): OwnerNotice {
  const words = text.length > GUEST_WORDS_MAX ? `${text.slice(0, GUEST_WORDS_MAX - 1)}…` : text;
  return {
    subject: `Сообщение от гостя: ${b.name}, бронирование №${b.id}`,
    text: [
      `«${b.cabinName}»: ${formatDate(b.checkIn)} — ${formatDate(b.checkOut)}`,
      `${b.name} пишет в ${channel}:`,
      '',
      words,
      ...(siteUrl ? ['', `Ответить: ${siteUrl.replace(/\/$/, '')} → админ-панель → «Сообщения»`] : []),
    ].join('\n'),
  };
}
/** How much of a guest's message the owner's alert quotes; the whole is in «Сообщения». */
const GUEST_WORDS_MAX = 1000;

/** A guest wrote in an Avito chat: the listing's cabin (when one is linked), the guest's words, where to answer. */
export function avitoMessageNotice(
  chat: { guestName: string; cabinName?: string },
  text: string,
  siteUrl?: string,
): OwnerNotice {
  const words = text.length > GUEST_WORDS_MAX ? `${text.slice(0, GUEST_WORDS_MAX - 1)}…` : text;
  const who = chat.guestName.trim() || 'Гость';
  return {
    subject: `Сообщение на Авито: ${who}${chat.cabinName ? `, «${chat.cabinName}»` : ''}`,
    text: [
      `${who} пишет на Авито${chat.cabinName ? ` об объявлении «${chat.cabinName}»` : ''}:`,
      '',
      words,
      ...(siteUrl ? ['', `Ответить: ${siteUrl.replace(/\/$/, '')} → админ-панель → «Сообщения»`] : []),
    ].join('\n'),
  };
}
