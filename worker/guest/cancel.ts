// The guest cancels from their own page: by the owner's policy (schema/guest-page.ts
// cancelTerms), the booking moves to cancelled in one conditional batch that also writes each
// payment's refund (the prepayment first), then ЮKassa is asked for each. If ЮKassa fails, the
// booking stays cancelled, the answer still says what goes back, and the schedule asks again.
// Cancelling again answers the same; the nights are free at once (Avito and iCal read them).
import { cancelTerms, type GuestCancelAnswer } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import type { Bindings } from '../env.ts';
import { notifyOwner } from '../notify/owner.ts';
import { moneyOf, sendPlannedRefunds, splitRefund } from '../payments/refunds.ts';
import { cancelByGuest, guestLookup, paymentsInOrder, type GuestLookup } from '../queries/guest.ts';
import { guestCancelNotice } from './notices.ts';

/** The answer of POST /api/guest/{token}/cancel; `refundError` when ЮKassa did not take the refund at once. */
export type CancelAnswer = GuestCancelAnswer & { refundError?: string };
export type CancelResult = { ok: true; answer: CancelAnswer } | { ok: false; status: 404 | 409; error: string };

type Later = (label: string, task: Promise<unknown>) => void;

/** The terms are worked out again when a payment or another tab changed the booking meanwhile, this many times at most. */
const ATTEMPTS = 3;

export async function cancelAsGuest(
  env: Bindings,
  token: string,
  first: GuestLookup,
  today: string,
  later: Later,
): Promise<CancelResult> {
  let l: GuestLookup | undefined = first;
  for (let attempt = 0; attempt < ATTEMPTS && l; attempt++) {
    const b = l.booking;
    // Already cancelled here: the same answer as the first time, nothing asked again.
    if (b.status === 'cancelled' && b.cancelledBy === 'guest')
      return { ok: true, answer: { status: 'cancelled', refunded: moneyOf(l.payments).refunded } };
    const { paid } = moneyOf(l.payments);
    const terms = cancelTerms(l.settings.cancellation, b, paid, today);
    if (!terms.allowed) return { ok: false, status: 409, error: terms.reason ?? MSG.guestCancelStatus };
    const paidCount = l.payments.filter((p) => p.status === 'succeeded').length;
    const cancelled = await cancelByGuest(
      env,
      { id: b.id, status: b.status, paidCount, today },
      splitRefund(l.payments, terms.refund),
    );
    if (cancelled) {
      const failed = await sendPlannedRefunds(env, await paymentsInOrder(env, b.id), cancelled, l.cabinName);
      const { refunded } = moneyOf(await paymentsInOrder(env, b.id));
      const notice = guestCancelNotice(
        cancelled,
        l.cabinName,
        { paid, refund: terms.refund, kept: terms.kept, refundFailed: failed > 0 },
        env.SITE_URL,
      );
      later('Guest cancellation notice', notifyOwner(env, notice));
      return {
        ok: true,
        answer: { status: 'cancelled', refunded, ...(failed ? { refundError: MSG.guestRefundFailed } : {}) },
      };
    }
    // Another tab cancelled first, or a payment came in, or the owner moved it: read again.
    l = await guestLookup(env, token);
  }
  if (!l) return { ok: false, status: 404, error: MSG.guestPageNotFound };
  return { ok: false, status: 409, error: MSG.bookingTransition };
}
