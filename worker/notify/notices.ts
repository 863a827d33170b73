import { BOOKING_CHANNEL_LABELS, type BookingChannel } from '../../schema/bookings.ts';
import type { Booking, Review } from '../../schema/tables.ts';
import { formatDate, formatPrice } from '../../schema/format.ts';
import type { OwnerNotice } from './owner.ts';

const stars = (n: number) => '★'.repeat(n) + '☆'.repeat(Math.max(0, 5 - n));

/** A new review waiting for moderation; the text is the visitor's own, sent as plain text. */
export function reviewNotice(review: Pick<Review, 'id' | 'name' | 'email' | 'rating' | 'comment'>, siteUrl?: string): OwnerNotice {
  const lines = [`${review.name} <${review.email}>`, stars(review.rating), '', review.comment];
  if (siteUrl) lines.push('', `Одобрить или скрыть: ${siteUrl.replace(/\/$/, '')} → админ-панель → «Отзывы»`);
  return { subject: `Новый отзыв №${review.id} ждёт модерации`, text: lines.join('\n') };
}

/** A new booking request: everything the owner needs to call the guest back. */
export function bookingNotice(
  b: Pick<Booking, 'id' | 'checkIn' | 'checkOut' | 'nights' | 'guests' | 'total' | 'name' | 'phone' | 'email' | 'comment' | 'channel'>,
  cabinName: string,
  siteUrl?: string,
): OwnerNotice {
  const lines = [
    `«${cabinName}»`,
    `Заезд: ${formatDate(b.checkIn)}`,
    `Выезд: ${formatDate(b.checkOut)}`,
    `Ночей: ${b.nights}, гостей: ${b.guests}`,
    `Итого: ${formatPrice(b.total)}`,
    '',
    `${b.name}, ${b.phone}${b.email ? `, ${b.email}` : ''}`,
    `Связь: ${BOOKING_CHANNEL_LABELS[b.channel as BookingChannel] ?? b.channel}`,
  ];
  if (b.comment) lines.push('', b.comment);
  if (siteUrl) lines.push('', `Подтвердить или отклонить: ${siteUrl.replace(/\/$/, '')} → админ-панель → «Заявки»`);
  return { subject: `Новая заявка №${b.id}: ${formatDate(b.checkIn)} — ${formatDate(b.checkOut)}`, text: lines.join('\n') };
}
