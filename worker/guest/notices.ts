// What the owner is told of what a guest did on their own page: a cancellation with its
// refund, the rest paid, the rest paid after cancelling (refunded by itself). Plain text, by every
// channel the owner set (worker/notify/owner.ts).
import { formatDate, formatPrice } from '../../schema/format.ts';
import { formatKopecks } from '../../schema/payment-options.ts';
import type { Booking } from '../../schema/tables.ts';
import type { OwnerNotice } from '../notify/owner.ts';

type StayFacts = Pick<Booking, 'id' | 'checkIn' | 'checkOut' | 'nights' | 'guests' | 'total' | 'name' | 'phone'>;

const stayLines = (b: StayFacts, cabinName: string) => [
  `«${cabinName}»: ${formatDate(b.checkIn)} — ${formatDate(b.checkOut)}, ночей: ${b.nights}, гостей: ${b.guests}`,
  `Итого за проживание: ${formatPrice(b.total)}`,
  ...(b.name || b.phone ? [[b.name, b.phone].filter(Boolean).join(', ')] : []),
];
const toPanel = (siteUrl?: string) =>
  siteUrl ? ['', `Подробности: ${siteUrl.replace(/\/$/, '')} → админ-панель → «Заявки»`] : [];

/** The guest cancelled on their page: the nights are free again; what goes back and what the policy kept. */
export function guestCancelNotice(
  b: StayFacts,
  cabinName: string,
  money: { paid: number; refund: number; kept: number; refundFailed: boolean },
  siteUrl?: string,
): OwnerNotice {
  const lines = [...stayLines(b, cabinName), ''];
  if (money.paid <= 0) lines.push('Оплаты не было: возвращать нечего.');
  else {
    lines.push(
      `Оплачено: ${formatKopecks(money.paid)}. Возврат гостю по условиям отмены: ${formatKopecks(money.refund)}.`,
    );
    if (money.kept > 0)
      lines.push(
        `Остаётся у вас: ${formatKopecks(money.kept)}. Вернуть и это можно в «Заявках» кнопкой «Вернуть предоплату».`,
      );
  }
  if (money.refundFailed)
    lines.push('ЮKassa не приняла возврат с первого раза: сервер повторяет его сам каждые 15 минут.');
  lines.push('Даты снова свободны.', ...toPanel(siteUrl));
  return {
    subject: `Гость отменил бронирование №${b.id}: ${formatDate(b.checkIn)} — ${formatDate(b.checkOut)}`,
    text: lines.join('\n'),
  };
}

/** The guest paid the rest from their page; the booking stays confirmed. */
export function balancePaidNotice(
  b: StayFacts,
  cabinName: string,
  kopecks: number,
  paidInAll: number,
  siteUrl?: string,
): OwnerNotice {
  return {
    subject: `Оплачен остаток ${formatKopecks(kopecks)}: бронирование №${b.id}`,
    text: [
      ...stayLines(b, cabinName),
      `Оплачено всего: ${formatKopecks(paidInAll)} из ${formatPrice(b.total)}`,
      ...toPanel(siteUrl),
    ].join('\n'),
  };
}

/** A payment of the rest came after the booking was cancelled: it went back by itself. */
export function lateBalanceNotice(b: StayFacts, cabinName: string, kopecks: number, siteUrl?: string): OwnerNotice {
  return {
    subject: `Оплата остатка по брони №${b.id} пришла после отмены: ${formatKopecks(kopecks)} возвращены гостю`,
    text: [
      ...stayLines(b, cabinName),
      'Бронирование уже было отменено, поэтому оплата возвращена автоматически.',
      ...toPanel(siteUrl),
    ].join('\n'),
  };
}

/** The guest moved their stay on their page: the old nights are free, the new ones theirs. */
export function guestChangeNotice(
  b: StayFacts,
  from: { cabinName: string; checkIn: string; checkOut: string; total: number },
  cabinName: string,
  money: { paid: number; refund: number },
  siteUrl?: string,
): OwnerNotice {
  const lines = [
    `Было: «${from.cabinName}», ${formatDate(from.checkIn)} — ${formatDate(from.checkOut)}, ${formatPrice(from.total)}`,
    `Стало: ${stayLines(b, cabinName)[0]}`,
    `Новая стоимость: ${formatPrice(b.total)}`,
    ...(b.name || b.phone ? [[b.name, b.phone].filter(Boolean).join(', ')] : []),
    '',
  ];
  if (money.paid > 0) lines.push(`Гость доплатил разницу: ${formatKopecks(money.paid)}.`);
  if (money.refund > 0) lines.push(`Возврат гостю по условиям отмены: ${formatKopecks(money.refund)}.`);
  lines.push('Прежние даты снова свободны; Авито узнает об этом в течение минуты.', ...toPanel(siteUrl));
  return {
    subject: `Гость перенёс бронирование №${b.id} на ${formatDate(b.checkIn)} — ${formatDate(b.checkOut)}`,
    text: lines.join('\n'),
  };
}
