import { Hono, type Context } from 'hono';
import { todayInMoscow } from '../../schema/dates.ts';
import { GUEST_TOKEN_PATTERN, guestPageUrl } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { cancelAsGuest } from '../guest/cancel.ts';
import { guestPageAnswer, pageAlive, stayMoney } from '../guest/page.ts';
import { stayCalendar } from '../guest/stay-ics.ts';
import { afterResponse } from '../lib/background.ts';
import { now } from '../lib/clock.ts';
import { apiError } from '../lib/errors.ts';
import { startBalance } from '../payments/balance.ts';
import { applyPayment } from '../payments/prepayment.ts';
import { getPayment, yookassaOf } from '../payments/yookassa.ts';
import { expireHolds } from '../transitions/hold.ts';
import { guestLookup, type GuestLookup } from '../queries/guest.ts';

type C = Context<AppEnv>;
const later = (c: C) => (label: string, task: Promise<unknown>) => afterResponse(c, label, task);
/** The public address the guest comes back to: SITE_URL, else the one they came by. */
const originOf = (c: C) => c.env.SITE_URL || new URL(c.req.url).origin;
const today = () => todayInMoscow(now());

/**
 * The booking behind a token, as the page shows it now: while a payment is pending it is read back
 * from ЮKassa (the guest back from its page sees the payment before ЮKassa's notification
 * arrives), and a hold that ran out unpaid is shown as run out. Undefined for an unknown or
 * malformed token and once the page has stopped answering (some weeks after departure).
 */
async function current(c: C, token: string): Promise<GuestLookup | undefined> {
  if (!GUEST_TOKEN_PATTERN.test(token)) return undefined;
  const l = await guestLookup(c.env, token);
  if (!l || !pageAlive(l.booking, today())) return undefined;
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
  const b = l.booking;
  if (b.status === 'awaiting_payment' && b.holdUntil && Date.parse(b.holdUntil) <= now()) {
    const ended = await expireHolds(c.env, b.id);
    if (ended.bookings.length) afterResponse(c, 'Hold expiry notification', ended.send());
    changed = true;
  }
  return changed ? guestLookup(c.env, token) : l;
}

const notFound = (c: C) => apiError(c, 404, MSG.guestPageNotFound);

/**
 * The guest's own page (docs/api.md «The guest's page and messages»), public under
 * /api/guest/{token}: the token, 144 random bits, is the only key. Never cached, never indexed.
 */
export const guestRoutes = new Hono<AppEnv>()
  .use(async (c, next) => {
    await next();
    c.header('cache-control', 'no-store');
    c.header('x-robots-tag', 'noindex, nofollow');
  })
  .get('/:token', async (c) => {
    const l = await current(c, c.req.param('token'));
    if (!l) return notFound(c);
    return c.json(guestPageAnswer(l, today(), yookassaOf(c.env) !== null));
  })
  /** The rest of the price, paid through ЮKassa: its payment page's address (the same while one is pending). */
  .post('/:token/pay', async (c) => {
    const token = c.req.param('token');
    const l = await current(c, token);
    if (!l) return notFound(c);
    const { due } = stayMoney(l);
    if (due <= 0) return apiError(c, 409, MSG.guestNothingDue);
    if (l.booking.status !== 'confirmed') return apiError(c, 409, MSG.guestPayNotConfirmed);
    if (!yookassaOf(c.env)) return apiError(c, 503, MSG.guestPayUnavailable);
    const pending = l.payments.find((p) => p.kind === 'balance' && p.status === 'pending' && p.amount === due && p.confirmationUrl);
    if (pending) return c.json({ confirmationUrl: pending.confirmationUrl, amount: pending.amount });
    try {
      return c.json(await startBalance(c.env, l.booking, l.cabinName, l.payments, due, { vatCode: l.settings.vatCode, origin: originOf(c) }));
    } catch (err) {
      console.error(`The balance payment of booking ${l.booking.id} could not be created:`, err instanceof Error ? err.message : err);
      return apiError(c, 502, MSG.guestPayUnavailable);
    }
  })
  .post('/:token/cancel', async (c) => {
    const token = c.req.param('token');
    const l = await current(c, token);
    if (!l) return notFound(c);
    const result = await cancelAsGuest(c.env, token, l, today(), later(c));
    if (!result.ok) return apiError(c, result.status, result.error);
    return c.json(result.answer);
  })
  /** The stay as one all-day event, for the guest's calendar. */
  .get('/:token/stay.ics', async (c) => {
    const token = c.req.param('token');
    const l = await current(c, token);
    if (!l) return notFound(c);
    const { booking: b, settings: s } = l;
    const body = stayCalendar(
      {
        id: b.id,
        cabinName: l.cabinName,
        siteName: s.siteName,
        checkIn: b.checkIn,
        checkOut: b.checkOut,
        checkInTime: s.checkInTime,
        checkOutTime: s.checkOutTime,
        address: s.address,
        pageUrl: guestPageUrl(originOf(c), token),
        status: b.status === 'confirmed' ? 'CONFIRMED' : b.status === 'new' || b.status === 'awaiting_payment' ? 'TENTATIVE' : 'CANCELLED',
      },
      now(),
    );
    return c.body(body, 200, { 'content-type': 'text/calendar; charset=utf-8', 'content-disposition': `attachment; filename="stay-${b.id}.ics"` });
  });
