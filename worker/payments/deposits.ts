// A deposit held on the guest's card, not charged (docs/api.md «Deposits»): a ЮKassa payment with
// `capture: false` the guest makes from their page; after departure the owner lets it go (a
// cancel) or keeps part of it (a capture of that part, with its 54-ФЗ receipt); undecided, the
// schedule lets it go 2 days after departure, and always before ЮKassa's own 7-day limit.
// Where a hold cannot be used (the stay outlasts it, or the shop takes none) and the owner chose
// so, the deposit is paid instead (`capture: true`, with its receipt) and given back by a refund:
// all of it, or all but the part kept; undecided, the schedule refunds it 2 days after departure.
// ЮKassa's own answer, read back, is the only thing that moves a deposit's status and refund; the
// decision is written first by a conditional write, so of the owner's buttons and the schedule one acts.
import {
  DEPOSIT_MSG,
  DEPOSIT_SAFE_HOLD_MS,
  DEPOSIT_STATE_LABELS,
  PAID_DEPOSIT_STATE_LABELS,
  depositAskFrom,
  depositReleaseOn,
  depositStateOf,
  paidDepositAskFrom,
  paidDepositRefund,
  stayFitsHold,
  type DepositMode,
  type DepositView,
} from '../../schema/deposits.ts';
import { formatPrice } from '../../schema/format.ts';
import { guestPageUrl } from '../../schema/guest-page.ts';
import type { Settings } from '../../schema/settings.ts';
import type { Booking, Deposit } from '../../schema/tables.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { messageForLog } from '../lib/for-log.ts';
import {
  claimDecision,
  decidedDeposits,
  depositsDueForRelease,
  leaseDeposit,
  moveDeposit,
  noteDepositError,
  paidRefundsDue,
  setDepositRefund,
  storeDeposit,
  type DepositDecision,
} from '../queries/deposits.ts';
import { depositReceipt } from './receipts.ts';
import { depositHoldsOffNotice } from '../notify/notices.ts';
import { notifyOwner } from '../notify/owner.ts';
import {
  cancelPayment,
  capturePayment,
  createPayment,
  createRefund,
  getRefund,
  kopecksOf,
  rub,
  yookassaOf,
  YooKassaError,
  type YooPayment,
} from './yookassa.ts';

/**
 * What a booking's deposit is: the cabin's amount in roubles, held or paid, the first day to pay
 * it, when it goes back.
 */
export type DepositRule = { amount: number; mode: DepositMode; askFrom: string; releaseOn: string };

/**
 * The deposit a booking asks for, or null where the cabin has none. A hold where one lasts (arrival
 * + stay + 2 days within ЮKassa's 7) and the shop takes holds; otherwise, by the owner's choice,
 * a deposit paid and refunded after departure, or none at all.
 */
export function depositRuleOf(
  b: Pick<Booking, 'checkIn' | 'checkOut'>,
  cabinDeposit: number,
  settings: Pick<Settings, 'deposit'>,
): DepositRule | null {
  if (cabinDeposit <= 0) return null;
  const { askDaysBefore, shopHolds, withoutHold } = settings.deposit;
  const releaseOn = depositReleaseOn(b.checkOut);
  if (shopHolds && stayFitsHold(b.checkIn, b.checkOut))
    return {
      amount: cabinDeposit,
      mode: 'hold',
      askFrom: depositAskFrom(b.checkIn, b.checkOut, askDaysBefore),
      releaseOn,
    };
  if (withoutHold !== 'paid') return null;
  return { amount: cabinDeposit, mode: 'paid', askFrom: paidDepositAskFrom(b.checkIn, askDaysBefore), releaseOn };
}

/** The deposit that counts for a booking: the one held or decided, else the newest try. */
export const currentOf = (all: readonly Deposit[]) =>
  all.find((d) => d.status === 'waiting_for_capture' || d.status === 'succeeded' || d.decision) ?? all[0];

/** The deposit as the panel and the guest's page show it; null where none is asked nor was held. */
export function depositViewOf(rule: DepositRule | null, d: Deposit | undefined): DepositView | null {
  if (!d && !rule) return null;
  const state = d && !(d.status === 'canceled' && !d.decision) ? depositStateOf(d) : 'asked';
  const mode = d && state !== 'asked' ? d.mode : (rule?.mode ?? 'hold');
  return {
    id: state === 'asked' ? null : (d?.id ?? null),
    mode,
    amount: d && state !== 'asked' ? Math.round(d.amount / 100) : (rule?.amount ?? 0),
    state,
    label: (mode === 'paid' ? PAID_DEPOSIT_STATE_LABELS : DEPOSIT_STATE_LABELS)[state],
    kept: d?.keptAmount != null ? Math.round(d.keptAmount / 100) : null,
    reason: d?.reason ?? null,
    error: errorOf(d),
    askFrom: rule?.askFrom ?? '',
    releaseOn: state === 'held' && rule ? rule.releaseOn : null,
  };
}

/** What the owner reads of a decision ЮKassa did not carry out, or of one it made by itself. */
function errorOf(d: Deposit | undefined): string | null {
  if (!d) return null;
  if (d.decidedBy === 'yookassa') return 'ЮKassa вернула залог сама: блокировка на карте истекла';
  if (d.mode === 'paid' && d.refundStatus === 'canceled')
    return 'ЮKassa отменила возврат залога. Проверьте платёж в личном кабинете ЮKassa и верните залог там';
  return d.error;
}

/** Why the guest's page cannot take the deposit today, or null when it can. */
export function whyNoDeposit(
  b: Pick<Booking, 'status' | 'checkIn'>,
  rule: DepositRule | null,
  current: Deposit | undefined,
  today: string,
): string | null {
  if (!rule) return DEPOSIT_MSG.none;
  if (b.status !== 'confirmed') return DEPOSIT_MSG.notConfirmed;
  if (current && current.status !== 'pending' && current.status !== 'canceled') return DEPOSIT_MSG.alreadyHeld;
  if (current?.decision) return DEPOSIT_MSG.alreadyHeld;
  if (today > b.checkIn) return DEPOSIT_MSG.tooLate;
  if (today < rule.askFrom) return DEPOSIT_MSG.notYet.replace('{date}', rule.askFrom.split('-').reverse().join('.'));
  return null;
}

/** ЮKassa refused the hold because the shop has no two-stage payments: the owner must act. */
export const holdsRefused = (err: unknown) => err instanceof YooKassaError && err.status === 403;

/** Tells the owner that a guest could not pay the deposit, and what to do. */
export const tellOwnerHoldsOff = (env: Bindings, b: Booking, cabinName: string) =>
  notifyOwner(env, depositHoldsOffNotice(b, cabinName, env.SITE_URL));

/**
 * Makes the deposit at ЮKassa, a hold or a payment as the rule says, and keeps it. The
 * Idempotence-Key names the booking, the kind and how many deposits were tried before: a double tap
 * makes one, and after one was cancelled on ЮKassa's page the next tap makes a new one. Throws
 * YooKassaError when ЮKassa cannot be reached or refuses.
 */
export async function startDeposit(
  env: Bindings,
  b: Booking,
  cabinName: string,
  rule: DepositRule,
  tries: number,
  opts: { vatCode: Settings['vatCode']; origin: string },
): Promise<{ confirmationUrl: string }> {
  const shop = yookassaOf(env);
  if (!shop) throw new YooKassaError('YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY are not set');
  const kopecks = rule.amount * 100;
  const paid = rule.mode === 'paid';
  const payment = await createPayment(
    shop,
    {
      amount: rub(kopecks),
      capture: paid,
      confirmation: { type: 'redirect', return_url: guestPageUrl(opts.origin, b.guestToken ?? '') },
      description: (paid
        ? `Залог с возвратом после выезда, бронирование №${b.id}`
        : `Залог, бронирование №${b.id}`
      ).slice(0, 128),
      metadata: { bookingId: String(b.id), kind: 'deposit' },
      receipt: depositReceipt(b, cabinName, kopecks, opts.vatCode),
    },
    `deposit-${paid ? 'paid-' : ''}${b.id}-${Date.parse(b.createdAt)}-${tries}`,
  );
  const confirmationUrl = payment.confirmation?.confirmation_url ?? '';
  await storeDeposit(env, {
    id: payment.id,
    bookingId: b.id,
    amount: kopecks,
    status: payment.status,
    confirmationUrl,
    mode: rule.mode,
  });
  return { confirmationUrl };
}

/**
 * ЮKassa's answer about a deposit, read back by the caller: written only if the deposit is still
 * as this caller read it, so a notification and the guest's page reading it at once move it once.
 */
export async function applyDepositAnswer(env: Bindings, d: Deposit, answer: YooPayment): Promise<Deposit | undefined> {
  if (answer.status === d.status) return undefined;
  // A hold captured is the part kept; a paid deposit succeeded is only paid, nothing kept yet.
  const kept = answer.status === 'succeeded' && d.mode === 'hold' ? kopecksOf(answer.amount) : undefined;
  return moveDeposit(env, d, answer.status, kept);
}

/** ЮKassa's refusal or silence as the owner reads it. */
const failureOf = (err: unknown) =>
  err instanceof YooKassaError && err.status && err.status < 500
    ? `ЮKassa отказала (${err.status}). Проверьте платёж в личном кабинете ЮKassa`
    : 'ЮKassa не ответила; мы повторим запрос сами';

/**
 * Gives a paid deposit back as decided: one refund of all of it, or of all but the part kept
 * (carryOut makes none when all is kept), with its 54-ФЗ receipt, under a key naming the deposit, so a retry never
 * refunds twice. A refund already made and still pending is read back instead.
 */
async function refundPaidDeposit(
  env: Bindings,
  shop: NonNullable<ReturnType<typeof yookassaOf>>,
  d: Deposit,
  booking: Pick<Booking, 'id' | 'email' | 'phone' | 'checkIn' | 'checkOut'>,
  cabinName: string,
  vatCode: Settings['vatCode'],
): Promise<Deposit> {
  const amount = paidDepositRefund(d);
  try {
    const kept = d.decision === 'keep' && d.keptAmount ? `; удержано ${formatPrice(d.keptAmount / 100)}` : '';
    const refund = d.refundId
      ? await getRefund(shop, d.refundId)
      : await createRefund(
          shop,
          {
            payment_id: d.id,
            amount: rub(amount),
            description: `Возврат залога, бронирование №${booking.id}${kept}`.slice(0, 250),
            receipt: depositReceipt(booking, cabinName, amount, vatCode),
          },
          `deposit-${d.id}-refund`,
        );
    return (await setDepositRefund(env, d.id, refund)) ?? { ...d, refundId: refund.id, refundStatus: refund.status };
  } catch (err) {
    console.error(`The refund of paid deposit ${d.id} (${d.decision}) was not made:`, messageForLog(err));
    const error = failureOf(err);
    await noteDepositError(env, d.id, error);
    return { ...d, error };
  }
}

/**
 * Asks ЮKassa to carry out a decided deposit (a cancel, or a capture of the part kept with its
 * receipt; for a paid one, its refund) under a key naming the decision, so a retry never captures
 * or refunds twice; its answer moves the deposit. A refusal or silence is written for the owner
 * and the schedule asks again.
 */
export async function carryOut(
  env: Bindings,
  d: Deposit,
  booking: Pick<Booking, 'id' | 'email' | 'phone' | 'checkIn' | 'checkOut'>,
  cabinName: string,
  vatCode: Settings['vatCode'],
): Promise<Deposit> {
  // A paid deposit with nothing to refund (all of it kept) needs no shop.
  if (d.mode === 'paid' && paidDepositRefund(d) <= 0) return d;
  const shop = yookassaOf(env);
  if (!shop) {
    await noteDepositError(env, d.id, 'Ключи ЮKassa не заданы на сервере');
    return { ...d, error: 'Ключи ЮKassa не заданы на сервере' };
  }
  if (d.mode === 'paid') return refundPaidDeposit(env, shop, d, booking, cabinName, vatCode);
  try {
    const answer =
      d.decision === 'keep' && d.keptAmount
        ? await capturePayment(
            shop,
            d.id,
            {
              amount: rub(d.keptAmount),
              receipt: depositReceipt(booking, cabinName, d.keptAmount, vatCode, d.reason ?? ''),
            },
            `deposit-${d.id}-keep`,
          )
        : await cancelPayment(shop, d.id, `deposit-${d.id}-release`);
    return (await applyDepositAnswer(env, d, answer)) ?? { ...d, status: answer.status };
  } catch (err) {
    console.error(`The deposit ${d.id} decision (${d.decision}) was not carried out:`, messageForLog(err));
    const error = failureOf(err);
    await noteDepositError(env, d.id, error);
    return { ...d, error };
  }
}

/** The owner's decision, as the route makes it: null when no hold stands or someone decided first. */
export const decide = (env: Bindings, id: string, decision: DepositDecision) => claimDecision(env, id, decision);

/** «Удержать …»: the part must fit the deposit. Undefined when it does, the refusal when not. */
export function keepRefusal(d: Deposit, roubles: number): string | undefined {
  return roubles * 100 > d.amount
    ? DEPOSIT_MSG.amountTooLarge.replace('{max}', formatPrice(d.amount / 100))
    : undefined;
}

/** How many deposits one schedule run carries out at most: each is one request to ЮKassa. */
export const DEPOSITS_PER_RUN = 5;

/** A paid deposit's decision left this long without a refund is taken to have been dropped by whoever made it. */
const PAID_RETRY_AFTER_MS = 5 * 60_000;

/**
 * The schedule's part: deposits nobody decided go back 2 days after departure (a hold sooner when
 * close to ЮKassa's limit); decisions ЮKassa did not carry out are asked again. Each claim is
 * conditional, so a run racing the owner's button never acts twice.
 */
export async function runDeposits(
  env: Bindings,
  today: string,
  lookup: (bookingId: number) => Promise<{ booking: Booking; cabinName: string } | undefined>,
  vatCode: Settings['vatCode'],
): Promise<number> {
  if (!yookassaOf(env)) return 0;
  const safeBefore = new Date(now() - DEPOSIT_SAFE_HOLD_MS).toISOString();
  let done = 0;
  const due = await depositsDueForRelease(env, today, safeBefore);
  for (const d of due.slice(0, DEPOSITS_PER_RUN)) {
    const claimed = await claimDecision(env, d.id, { decision: 'release', by: 'auto' });
    const l = claimed && (await lookup(claimed.bookingId));
    if (!claimed || !l) continue;
    await carryOut(env, claimed, l.booking, l.cabinName, vatCode);
    done++;
  }
  for (const d of (await decidedDeposits(env)).slice(0, DEPOSITS_PER_RUN - done)) {
    const l = await lookup(d.bookingId);
    if (!l) continue;
    await carryOut(env, d, l.booking, l.cabinName, vatCode);
    done++;
  }
  const staleBefore = new Date(now() - PAID_RETRY_AFTER_MS).toISOString();
  for (const d of (await paidRefundsDue(env, staleBefore)).slice(0, Math.max(0, DEPOSITS_PER_RUN - done))) {
    // Of two runs at once, the one whose lease is written asks; the other leaves it.
    const leased = await leaseDeposit(env, d);
    const l = leased && (await lookup(d.bookingId));
    if (!leased || !l) continue;
    await carryOut(env, leased, l.booking, l.cabinName, vatCode);
    done++;
  }
  return done;
}
