// The booking behind a guest's token as their page shows it now, for GET /api/guest/{token} and
// the page itself (worker/pages/guest.ts): both read it the same way, so they never disagree.
import type { Context } from 'hono';
import { todayInMoscow } from '../../schema/dates.ts';
import { GUEST_TOKEN_PATTERN } from '../../schema/guest-page.ts';
import type { AppEnv } from '../env.ts';
import { afterResponse } from '../lib/background.ts';
import { now } from '../lib/clock.ts';
import { applyPayment } from '../payments/prepayment.ts';
import { applyDepositAnswer } from '../payments/deposits.ts';
import { getPayment, yookassaOf } from '../payments/yookassa.ts';
import { guestLookup, type GuestLookup } from '../queries/guest.ts';
import { expireHolds } from '../transitions/hold.ts';
import { pageAlive } from './page.ts';

type C = Context<AppEnv>;
const later = (c: C) => (label: string, task: Promise<unknown>) => afterResponse(c, label, task);
export const guestToday = () => todayInMoscow(now());

/**
 * The booking behind a token, as the page shows it now: while a payment is pending it is read back
 * from ЮKassa (the guest back from its page sees the payment before ЮKassa's notification
 * arrives), and a hold that ran out unpaid is shown as run out. Undefined for an unknown or
 * malformed token and once the page has stopped answering (some weeks after departure).
 */
export async function currentStay(c: C, token: string): Promise<GuestLookup | undefined> {
  if (!GUEST_TOKEN_PATTERN.test(token)) return undefined;
  const l = await guestLookup(c.env, token);
  if (!l || !pageAlive(l.booking, guestToday())) return undefined;
  let changed = false;
  const shop = yookassaOf(c.env);
  for (const p of l.payments) {
    if (!shop || p.status !== 'pending') continue;
    try {
      await applyPayment(c.env, p, await getPayment(shop, p.id), later(c));
      changed = true;
    } catch (err) {
      console.error(`Payment ${p.id} could not be read back:`, err instanceof Error ? err.message : err);
    }
  }
  for (const d of l.deposits) {
    if (!shop || d.status !== 'pending') continue;
    try {
      changed = Boolean(await applyDepositAnswer(c.env, d, await getPayment(shop, d.id))) || changed;
    } catch (err) {
      console.error(`Deposit ${d.id} could not be read back:`, err instanceof Error ? err.message : err);
    }
  }
  const b = l.booking;
  if (b.status === 'awaiting_payment' && b.holdUntil && Date.parse(b.holdUntil) <= now()) {
    const ended = await expireHolds(c.env, b.id);
    if (ended.bookings.length) afterResponse(c, 'Hold expiry notification', ended.send());
    changed = true;
  }
  return changed ? guestLookup(c.env, token) : l;
}
