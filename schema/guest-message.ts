// The owner's message to a guest about their request: the words of the one-tap messenger
// replies of «Заявки». Plain functions, so the panel and the unit tests share them.
import type { BookingStatus } from './booking-options.ts';
import { formatGuests, formatMoscowTime, formatNights, formatPrice, formatStayDates } from './format.ts';
import { formatKopecks } from './payment-options.ts';

/** What the message tells about the request. */
export type GuestMessageBooking = {
  id: number;
  status: string;
  cabinName: string;
  checkIn: string;
  checkOut: string;
  nights: number;
  guests: number;
  total: number;
  name: string;
  /** Until when unpaid nights are held (awaiting_payment). */
  holdUntil?: string | null;
  /** The prepayment asked for: its amount in kopecks and ЮKassa's page while it waits to be paid. */
  payment?: { amount: number; status: string; confirmationUrl: string } | null;
};

/** What the message tells about the place, from the settings. */
export type GuestMessagePlace = { siteName: string; checkInTime: string; checkOutTime: string; address: string };

const OPENING: Record<BookingStatus, (id: number) => string> = {
  new: (id) => `Получили вашу заявку №${id}, скоро подтвердим бронирование.`,
  confirmed: (id) => `Ваше бронирование №${id} подтверждено.`,
  declined: (id) => `К сожалению, по заявке №${id} не можем принять вас на эти даты.`,
  cancelled: (id) => `Бронирование №${id} отменено.`,
  awaiting_payment: (id) => `Держим для вас даты по заявке №${id}, ждём предоплату.`,
  expired: (id) => `Бронь по заявке №${id} истекла: предоплата не поступила.`,
};

/** The guest's first name as they typed it, for «Здравствуйте, Мадина!». */
const firstName = (name: string) => name.trim().split(/\s+/)[0] ?? '';

/**
 * The message, plain text (it goes into wa.me and sms: alike):
 *   Здравствуйте, Мадина!
 *   Ваше бронирование №7 подтверждено.
 *   «Домик у моря»: 20–23 декабря 2026, 3 ночи, 2 гостя.
 *   Итого: 37 500 ₽.
 *   Заезд с 14:00, выезд до 12:00.
 *   Адрес: Каспийск, ул. Приморская, 12.
 *   Страница бронирования (как добраться, оплата, отмена): https://kaspiy.ru/b/…
 *   До встречи! Каспий Домики
 * The check-in time, the address and the guest's page (`pageLink`) only once confirmed: before
 * that they promise nothing. A confirmed stay's message is all the guest needs on the road, in
 * one place, whatever the owner's e-mail template says.
 */
export function guestMessage(b: GuestMessageBooking, place: GuestMessagePlace, pageLink?: string): string {
  const name = firstName(b.name);
  const status = (b.status in OPENING ? b.status : 'new') as BookingStatus;
  const lines = [
    name ? `Здравствуйте, ${name}!` : 'Здравствуйте!',
    OPENING[status](b.id),
    `«${b.cabinName}»: ${formatStayDates(b.checkIn, b.checkOut)}, ${formatNights(b.nights)}, ${formatGuests(b.guests)}.`,
    `Итого: ${formatPrice(b.total)}.`,
  ];
  // The payment link the owner sent from «Заявки»: the amount, the page, and how long it holds.
  if (status === 'awaiting_payment' && b.payment?.status === 'pending' && b.payment.confirmationUrl) {
    lines.push(`Предоплата ${formatKopecks(b.payment.amount)}, оплатить: ${b.payment.confirmationUrl}`);
    const until = b.holdUntil ? formatMoscowTime(b.holdUntil) : '';
    if (until) lines.push(`Даты держим до ${until} по Москве, потом они снова станут свободными.`);
  }
  if (status === 'confirmed') {
    lines.push(`Заезд с ${place.checkInTime}, выезд до ${place.checkOutTime}.`);
    if (place.address.trim()) lines.push(`Адрес: ${place.address.trim().replace(/\.$/, '')}.`);
    if (pageLink) lines.push(`Страница бронирования (как добраться, оплата, отмена): ${pageLink}`);
    lines.push(place.siteName.trim() ? `До встречи! ${place.siteName.trim()}` : 'До встречи!');
  } else if (place.siteName.trim()) {
    lines.push(place.siteName.trim());
  }
  return lines.join('\n');
}

/** The confirmation e-mail's subject: «Бронирование №7 подтверждено — Каспий Домики». */
export const confirmationSubject = (id: number, siteName: string) =>
  `Бронирование №${id} подтверждено${siteName.trim() ? ` — ${siteName.trim()}` : ''}`;
