// A guest moves the dates of their stay from their own page (docs/features.md «Перенос дат»): the
// owner's rules, the words the guest and the owner read, and what a change pays or gives back.
// Plain functions and zod, so the page, the routes and the tests share them.
import { z } from 'zod';
import { addDays, isIsoDate, type IsoDate } from './dates.ts';
import { formatDate } from './format.ts';
import { stayDatesRule } from './bookings.ts';
import { MSG } from './messages.ts';

/** Until how many days before arrival a guest may move the dates, unless the owner sets another. */
export const CHANGE_ALLOWED_UNTIL_DAYS_DEFAULT = 3;
export const CHANGE_ALLOWED_UNTIL_DAYS_MAX = 60;

/** The owner's rules: until how many days before arrival, and whether to another cabin too. */
export const changeSettingsSchema = z.strictObject(
  {
    allowedUntilDays: z
      .number({ error: MSG.changeDaysInvalid })
      .int(MSG.changeDaysInvalid)
      .min(0, MSG.changeDaysInvalid)
      .max(CHANGE_ALLOWED_UNTIL_DAYS_MAX, MSG.changeDaysInvalid),
    anyCabin: z.boolean({ error: MSG.badInput }),
  },
  { error: MSG.changeDaysInvalid },
);
export type ChangeSettings = z.infer<typeof changeSettingsSchema>;
export const DEFAULT_CHANGE_SETTINGS: ChangeSettings = {
  allowedUntilDays: CHANGE_ALLOWED_UNTIL_DAYS_DEFAULT,
  anyCabin: false,
};

export const CHANGE_MSG = {
  notConfirmed: 'Перенести даты можно у подтверждённой брони',
  arrived: 'Заезд уже состоялся: даты больше не меняются. Напишите хозяину',
  tooLate: 'Перенести даты можно до {date}. Теперь только через хозяина: напишите ему',
  sameStay: 'Это те же даты: выберите другие',
  sameCabinOnly: 'Перенести можно только в тот же домик',
  past: 'Новая дата заезда уже прошла',
  taken: 'Эти даты уже заняты. Выберите другие',
  pending: 'Перенос на {dates} ждёт доплаты до {time}. Оплатите его или дождитесь, пока он отменится',
  depositHeld: 'Пока на карте заблокирован залог, даты не меняются. Напишите хозяину',
  cabinMissing: MSG.cabinNotFound,
} as const;

const day = z.string({ error: MSG.dateInvalid }).refine(isIsoDate, MSG.dateInvalid);
const cabinIdField = z.number({ error: MSG.badId }).int(MSG.badId).positive(MSG.badId);

/** POST /api/guest/{token}/change: the new stay; the cabin only where the owner allows another. */
export const changeInputSchema = z
  .strictObject({ checkIn: day, checkOut: day, cabinId: cabinIdField.optional() })
  .superRefine(stayDatesRule);
export type ChangeInput = z.infer<typeof changeInputSchema>;

/** GET /api/guest/{token}/change?checkIn&checkOut&cabinId: the same, from a query string. */
export const changeQuerySchema = z
  .object({
    checkIn: day,
    checkOut: day,
    cabinId: z
      .string({ error: MSG.badId })
      .regex(/^[1-9]\d{0,9}$/, MSG.badId)
      .transform(Number)
      .optional(),
  })
  .superRefine(stayDatesRule);

/** The last day a stay arriving on `checkIn` may still be moved by the guest. */
export const changeAllowedUntil = (checkIn: IsoDate, rules: ChangeSettings) =>
  addDays(checkIn, -rules.allowedUntilDays);

type Stay = { status: string; checkIn: IsoDate; checkOut: IsoDate; cabinId: number; arrivedAt?: string | null };

/** Why this booking cannot be moved at all today, in the guest's words; null when it can. */
export function changeClosed(b: Stay, rules: ChangeSettings, today: IsoDate): string | null {
  if (b.arrivedAt || today >= b.checkIn) return CHANGE_MSG.arrived;
  if (b.status !== 'confirmed') return CHANGE_MSG.notConfirmed;
  const until = changeAllowedUntil(b.checkIn, rules);
  if (today > until) return CHANGE_MSG.tooLate.replace('{date}', formatDate(until));
  return null;
}

/** Why this new stay is not one the guest may move to (besides its nights and price); null when it may. */
export function changeRefusal(
  b: Stay,
  to: { checkIn: IsoDate; checkOut: IsoDate; cabinId: number },
  rules: ChangeSettings,
  today: IsoDate,
): string | null {
  const closed = changeClosed(b, rules, today);
  if (closed) return closed;
  if (to.cabinId !== b.cabinId && !rules.anyCabin) return CHANGE_MSG.sameCabinOnly;
  if (to.checkIn < today) return CHANGE_MSG.past;
  if (to.cabinId === b.cabinId && to.checkIn === b.checkIn && to.checkOut === b.checkOut) return CHANGE_MSG.sameStay;
  return null;
}

/**
 * What a change pays or gives back, in kopecks. Dearer: the difference is paid. Cheaper: what the
 * guest paid over the new price goes back, less the share the cancellation policy keeps of the
 * part of the price given up (as if that part were cancelled today): nothing is kept while
 * cancelling is free.
 */
export function changeMoney(
  policy: { freeUntilDays: number; keepPercent: number },
  from: { checkIn: IsoDate; total: number },
  newTotal: number,
  paid: number,
  today: IsoDate,
): { due: number; refund: number } {
  const difference = newTotal - from.total;
  if (difference > 0) return { due: difference * 100, refund: 0 };
  const over = Math.max(0, paid - newTotal * 100);
  const free = today <= addDays(from.checkIn, -policy.freeUntilDays);
  const kept = free ? 0 : Math.round(-difference * policy.keepPercent); // ₽ × % = kopecks
  return { due: 0, refund: Math.max(0, over - kept) };
}
