// A deposit held on the guest's card, not charged, or, where a hold cannot be used and the owner
// chose so, paid and refunded after departure (docs/features.md «Залог»): the rules and the words
// the guest's page, the panel and the API share.
import { z } from 'zod';
import { addDays, nightsBetween } from './dates.ts';
import { MSG } from './messages.ts';
import type { Deposit } from './tables.ts';

/** ЮKassa keeps a hold on a card at most 7 days, then lets it go by itself. */
export const DEPOSIT_HOLD_DAYS = 7;
/** An undecided deposit goes back by itself this many days after departure. */
export const DEPOSIT_RELEASE_AFTER_DAYS = 2;
/** Days before arrival the guest's page asks for the deposit, unless the owner sets another. */
export const DEPOSIT_ASK_DAYS_DEFAULT = 1;
export const DEPOSIT_ASK_DAYS_MAX = 6;
/** The largest deposit a cabin can ask, in roubles. */
export const DEPOSIT_MAX_RUB = 1_000_000;
export const DEPOSIT_REASON_MAX = 300;
/**
 * Before ЮKassa's own limit the schedule lets a hold go anyway, 6 hours to spare, so the guest's
 * money never waits for ЮKassa's cancel and its notice.
 */
export const DEPOSIT_SAFE_HOLD_MS = (DEPOSIT_HOLD_DAYS * 24 - 6) * 3600_000;

/** How a deposit is taken: blocked on the card, or charged and refunded after departure. */
export const DEPOSIT_MODES = ['hold', 'paid'] as const;
export type DepositMode = (typeof DEPOSIT_MODES)[number];

/** What a stay a hold cannot serve gets, as the owner chose: no deposit, or one paid and refunded. */
export const DEPOSIT_WITHOUT_HOLD = ['none', 'paid'] as const;
export type DepositWithoutHold = (typeof DEPOSIT_WITHOUT_HOLD)[number];
export const DEPOSIT_WITHOUT_HOLD_LABELS: Record<DepositWithoutHold, string> = {
  none: 'Без залога',
  paid: 'Залог оплачивается и возвращается после выезда',
};
export const DEPOSIT_SHOP_HOLDS_LABEL = 'В магазине ЮKassa включены двухстадийные платежи';
export const DEPOSIT_WITHOUT_HOLD_LABEL =
  'Когда блокировка невозможна (долгое проживание или магазин без холдирования)';

/** What the panel says beside the amount, so the owner knows the limits of a hold before using it. */
export const DEPOSIT_HOLD_NOTE =
  'Залог блокируется на карте гостя через ЮKassa и не списывается. ЮKassa держит блокировку не дольше 7 дней, ' +
  'только при оплате картой (не через СБП) и только если в магазине ЮKassa включены двухстадийные платежи ' +
  '(холдирование). Не решённый залог вернётся гостю сам через 2 дня после выезда.';

/** What the panel says of a deposit paid instead of held, before the owner chooses it. */
export const DEPOSIT_PAID_NOTE =
  'Оплаченный залог списывается с карты гостя (можно и через СБП) с чеком, как предоплата, но не считается оплатой ' +
  'проживания. После выезда «Вернуть залог» возвращает его целиком, «Удержать …» — всё, кроме удержанного; не ' +
  'решённый залог вернётся гостю сам через 2 дня после выезда.';

export const DEPOSIT_MSG = {
  none: 'Для этого бронирования залог не нужен',
  notYet: 'Залог можно будет внести с {date}',
  tooLate: 'Срок внесения залога прошёл: гость уже заехал',
  alreadyHeld: 'Залог уже внесён',
  notConfirmed: 'Залог вносится после подтверждения бронирования',
  holdsOff:
    'ЮKassa отказала в блокировке залога: в магазине не включены двухстадийные платежи. Включите холдирование в личном кабинете ЮKassa или уберите залог у домика',
  guestHoldsOff: 'Сейчас залог не принимается: хозяин уже знает об этом. Внести его можно будет позже на этой странице',
  nothingHeld: 'Залог не внесён или уже возвращён: возвращать или удерживать нечего',
  decided: 'Решение по залогу уже принято',
  amountInvalid: MSG.depositKeepAmountInvalid,
  amountTooLarge: 'Удержать можно не больше залога: {max}',
  reasonRequired: MSG.depositReasonRequired,
  reasonTooLong: MSG.depositReasonTooLong,
  unavailable: 'ЮKassa сейчас не отвечает. Попробуйте через минуту: решение сохранено, мы повторим запрос сами',
  shopHoldsInvalid: MSG.depositShopHoldsInvalid,
  withoutHoldInvalid: MSG.depositWithoutHoldInvalid,
} as const;

/** «Удержать …»: the part to keep, in roubles, and the reason the guest will read. */
export const depositKeepSchema = z.object({
  amount: z
    .number({ error: DEPOSIT_MSG.amountInvalid })
    .int(DEPOSIT_MSG.amountInvalid)
    .min(1, DEPOSIT_MSG.amountInvalid)
    .max(DEPOSIT_MAX_RUB, DEPOSIT_MSG.amountInvalid),
  reason: z
    .string({ error: DEPOSIT_MSG.reasonRequired })
    .trim()
    .min(1, DEPOSIT_MSG.reasonRequired)
    .max(DEPOSIT_REASON_MAX, DEPOSIT_MSG.reasonTooLong),
});
export type DepositKeep = z.infer<typeof depositKeepSchema>;

/** Where a deposit stands, as the panel and the guest's page show it. */
export type DepositState = 'asked' | 'pending' | 'held' | 'releasing' | 'released' | 'keeping' | 'kept' | 'failed';

/** A paid deposit's decision is done once its refund went through, or nothing was to go back. */
export const paidDepositSettled = (d: Pick<Deposit, 'amount' | 'decision' | 'keptAmount' | 'refundStatus'>) =>
  d.refundStatus === 'succeeded' || (d.decision === 'keep' && (d.keptAmount ?? 0) >= d.amount);

/** What goes back of a paid deposit by its decision, in kopecks: all, or all but the part kept. */
export const paidDepositRefund = (d: Pick<Deposit, 'amount' | 'decision' | 'keptAmount'>) =>
  d.decision === 'keep' ? Math.max(0, d.amount - (d.keptAmount ?? 0)) : d.amount;

export function depositStateOf(
  d: Pick<Deposit, 'status' | 'decision' | 'error' | 'mode' | 'amount' | 'keptAmount' | 'refundStatus'>,
): DepositState {
  if (d.status === 'pending') return 'pending';
  if (d.mode === 'paid' && d.status === 'succeeded') {
    if (!d.decision) return 'held';
    // ЮKassa cancelled the refund itself: the owner must see to it in ЮKassa's own account.
    if (d.refundStatus === 'canceled') return 'failed';
    const settled = paidDepositSettled(d);
    if (d.decision === 'release') return settled ? 'released' : d.error ? 'failed' : 'releasing';
    return settled ? 'kept' : d.error ? 'failed' : 'keeping';
  }
  if (d.status === 'canceled') return 'released';
  if (d.status === 'succeeded') return 'kept';
  if (d.decision === 'release') return d.error ? 'failed' : 'releasing';
  if (d.decision === 'keep') return d.error ? 'failed' : 'keeping';
  return 'held';
}

export const DEPOSIT_STATE_LABELS: Record<DepositState, string> = {
  asked: 'Ждём залог',
  pending: 'Гость оплачивает залог',
  held: 'Залог удерживается на карте',
  releasing: 'Залог возвращается',
  released: 'Залог возвращён',
  keeping: 'Удерживаем часть залога',
  kept: 'Часть залога удержана',
  failed: 'ЮKassa не приняла решение по залогу',
};

/** The same of a paid deposit, where nothing is blocked: the money was charged and goes back by a refund. */
export const PAID_DEPOSIT_STATE_LABELS: Record<DepositState, string> = {
  ...DEPOSIT_STATE_LABELS,
  held: 'Залог оплачен, вернётся после выезда',
  releasing: 'Залог возвращается на карту',
  released: 'Залог возвращён',
  keeping: 'Удерживаем часть залога, остальное возвращается',
  kept: 'Часть залога удержана',
  failed: 'ЮKassa не вернула залог',
};

/** A deposit as the panel and the guest's page read it. Amounts in roubles. */
export const depositView = z.object({
  id: z.string().nullable(),
  /** 'hold': blocked on the card; 'paid': charged and refunded after departure. Told before paying. */
  mode: z.enum(DEPOSIT_MODES),
  amount: z.number().int(),
  state: z.enum(['asked', 'pending', 'held', 'releasing', 'released', 'keeping', 'kept', 'failed']),
  label: z.string(),
  kept: z.number().int().nullable(),
  reason: z.string().nullable(),
  error: z.string().nullable(),
  /** The first day the guest's page offers to pay it. */
  askFrom: z.string(),
  /** When an undecided deposit goes back by itself (Moscow date). */
  releaseOn: z.string().nullable(),
});
export type DepositView = z.infer<typeof depositView>;

/**
 * The first day the guest's page asks for the deposit: `askDaysBefore` days before arrival, but
 * never so early that the hold would not last until it goes back by itself after departure.
 */
export const depositAskFrom = (checkIn: string, checkOut: string, askDaysBefore: number) => {
  const early = addDays(checkIn, -askDaysBefore);
  const latest = addDays(checkOut, DEPOSIT_RELEASE_AFTER_DAYS - DEPOSIT_HOLD_DAYS);
  return early > latest ? early : latest;
};
/**
 * The first day the guest's page asks for a paid deposit: `askDaysBefore` days before arrival (no
 * hold has to last, so nothing holds it back).
 */
export const paidDepositAskFrom = (checkIn: string, askDaysBefore: number) => addDays(checkIn, -askDaysBefore);
/** A hold made on arrival day still lasts until the deposit goes back by itself: arrival + stay + 2 days ≤ 7. */
export const stayFitsHold = (checkIn: string, checkOut: string) =>
  nightsBetween(checkIn, checkOut) + DEPOSIT_RELEASE_AFTER_DAYS <= DEPOSIT_HOLD_DAYS;
/** The Moscow date an undecided deposit goes back by itself. */
export const depositReleaseOn = (checkOut: string) => addDays(checkOut, DEPOSIT_RELEASE_AFTER_DAYS);
