// The guest's page's words about moving the dates, without zod: the island and the server's HTML
// of the page (worker/pages/guest-html.ts) import these, and the island ships no validation code.
import { formatDate, formatMoscowTime, formatStayDates } from './format.ts';
import { formatKopecks } from './payment-options.ts';

/** The button that moves the stay, or takes the guest to pay the difference. */
export const CHANGE_BUTTON = (due: number) =>
  due > 0 ? `Перенести и доплатить ${formatKopecks(due)}` : 'Перенести на эти даты';

/** A move waiting for its difference: to which dates, how much, until when the new nights are held. */
export const changePendingText = (p: { checkIn: string; checkOut: string; due: number; holdUntil: string }) =>
  `Перенос на ${formatStayDates(p.checkIn, p.checkOut)} ждёт доплаты ${formatKopecks(p.due)} до ${formatMoscowTime(p.holdUntil)}. Не оплатите — бронь останется на прежних датах.`;

/** Above the fields: until when the dates can be moved, and how the price is settled. */
export const changeRulesText = (until: string) =>
  `Перенести даты можно до ${formatDate(until)} включительно: новую стоимость считаем по ценам домика. Дороже — доплата через ЮKassa, дешевле — вернём переплату по условиям отмены.`;
