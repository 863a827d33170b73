// The answer of GET /api/guest/{token} (schema/guest-page.ts GuestPageAnswer), from what
// worker/queries/guest.ts read: the money in kopecks, the cancellation terms by the owner's policy,
// the way there once the stay is confirmed.
import { cancelTerms, guestPageLastDay, type GuestPageAnswer } from '../../schema/guest-page.ts';
import { extractMapSrc } from '../../schema/map.ts';
import type { Settings } from '../../schema/settings.ts';
import type { Booking } from '../../schema/tables.ts';
import type { GuestLookup } from '../queries/guest.ts';
import { moneyOf } from '../payments/refunds.ts';
import { currentOf, depositRuleOf, depositViewOf, whyNoDeposit } from '../payments/deposits.ts';
import { changeAllowedUntil, changeClosed } from '../../schema/date-change.ts';
import { takesGuests } from '../../schema/pricing.ts';
import { now } from '../lib/clock.ts';

/** Statuses in which the stay is still to be paid for; any other owes nothing. */
const OWING = new Set(['new', 'awaiting_payment', 'confirmed']);

/** Whether the page still answers today: it stops GUEST_PAGE_DAYS_AFTER_DEPARTURE days after departure. */
export const pageAlive = (b: Pick<Booking, 'checkOut'>, today: string) => today <= guestPageLastDay(b.checkOut);

/** Where the cabins are on a map: the owner's own map (its frame's address) when set, else Yandex Maps' search for the address. */
export function mapUrlOf(s: Pick<Settings, 'mapEmbedCode' | 'address'>): string {
  const own = extractMapSrc(s.mapEmbedCode);
  if (own) return own;
  return s.address.trim() ? `https://yandex.ru/maps/?text=${encodeURIComponent(s.address.trim())}` : '';
}

/** The stay's money: what was paid (refunds taken off), what went back, what is left to pay. */
export function stayMoney(l: Pick<GuestLookup, 'booking' | 'payments'>) {
  const { paid, refunded } = moneyOf(l.payments);
  const due = OWING.has(l.booking.status) ? Math.max(0, l.booking.total * 100 - paid) : 0;
  return { paid, refunded, due };
}

export function guestPageAnswer(l: GuestLookup, today: string, shopConfigured: boolean): GuestPageAnswer {
  const { booking: b, settings: s } = l;
  const { paid, refunded, due } = stayMoney(l);
  const confirmed = b.status === 'confirmed';
  const pending = [...l.payments].reverse().find((p) => p.status === 'pending' && p.confirmationUrl);
  const page: GuestPageAnswer = {
    id: b.id,
    status: b.status,
    cabin: { id: b.cabinId, name: l.cabinName },
    checkIn: b.checkIn,
    checkOut: b.checkOut,
    nights: b.nights,
    guests: b.guests,
    childrenAges: b.childrenAges,
    pets: b.pets,
    lines: b.lines,
    total: b.total,
    paid,
    due,
    canPay: confirmed && due > 0 && shopConfigured,
    cancel: { ...cancelTerms(s.cancellation, b, paid, today), policy: s.cancellation },
    refunded,
    // An early check-in or a late check-out the guest paid for moves the hour.
    checkInTime: b.earlyCheckIn ?? s.checkInTime,
    checkOutTime: b.lateCheckOut ?? s.checkOutTime,
    canReview: confirmed && today >= b.checkOut && !l.reviewed,
    reviewed: l.reviewed,
  };
  if (l.telegram.bot && OWING.has(b.status)) page.telegram = { linked: l.telegram.linked };
  if (l.max.bot && OWING.has(b.status)) page.max = { linked: l.max.linked };
  if (pending && (b.status === 'awaiting_payment' || (confirmed && pending.kind === 'balance')))
    page.pendingPayment = { amount: pending.amount, confirmationUrl: pending.confirmationUrl };
  const rule = depositRuleOf(b, l.cabinDeposit, s);
  const held = currentOf(l.deposits);
  const deposit = depositViewOf(rule, held);
  if (deposit && (confirmed || deposit.state !== 'asked')) {
    const started = held?.status === 'pending' && held.confirmationUrl ? held.confirmationUrl : undefined;
    page.deposit = {
      ...deposit,
      canPay: shopConfigured && !started && whyNoDeposit(b, rule, held, today) === null,
      ...(started ? { confirmationUrl: started } : {}),
    };
  }
  if (confirmed && today < b.checkIn && !b.arrivedAt) {
    const reason = changeClosed(b, s.changes, today);
    const at = new Date(now()).toISOString();
    const waiting = l.changes.find((c) => c.status === 'awaiting_payment' && (c.holdUntil ?? '') > at);
    const payment = waiting && l.payments.find((p) => p.id === waiting.paymentId && p.status === 'pending');
    const allowed = reason === null && !waiting;
    // What the quote checks of the party (worker/calendar/quote.ts), so no cabin offered refuses it.
    const others = l.cabinsToMove.filter(
      (c) => c.id !== b.cabinId && takesGuests(c.maxGuests, b.guests, b.childrenAges) && (!b.pets || c.pets.allowed),
    );
    page.change = {
      allowed,
      ...(reason ? { reason } : {}),
      until: changeAllowedUntil(b.checkIn, s.changes),
      anyCabin: s.changes.anyCabin,
      ...(allowed && s.changes.anyCabin && others.length > 0
        ? { cabins: [{ id: b.cabinId, name: l.cabinName }, ...others.map(({ id, name }) => ({ id, name }))] }
        : {}),
      ...(waiting && payment?.confirmationUrl
        ? {
            pending: {
              checkIn: waiting.toCheckIn,
              checkOut: waiting.toCheckOut,
              cabinId: waiting.toCabinId,
              due: waiting.due,
              holdUntil: waiting.holdUntil ?? '',
              confirmationUrl: payment.confirmationUrl,
            },
          }
        : {}),
    };
  }
  if (confirmed)
    page.instructions = {
      address: s.address,
      mapUrl: mapUrlOf(s),
      text: l.instructions,
      phone: s.phone,
      email: s.email,
      siteName: s.siteName,
    };
  return page;
}
