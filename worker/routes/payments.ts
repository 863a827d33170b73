import { applyDepositAnswer } from '../payments/deposits.ts';
import { depositByRefund, getDeposit, setDepositRefund } from '../queries/deposits.ts';
import { Hono } from 'hono';
import { z } from 'zod';
import { MSG } from '../../schema/messages.ts';
import { nightPrice } from '../../schema/pricing.ts';
import { recheckFeeds } from '../calendar/sync.ts';
import type { AppEnv } from '../env.ts';
import { afterResponse } from '../lib/background.ts';
import { now } from '../lib/clock.ts';
import { apiError } from '../lib/errors.ts';
import { messageForLog } from '../lib/for-log.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { applyPayment, holdUntilOf, startPayment, type PaymentOutcome } from '../payments/prepayment.ts';
import { moneyOf, refundedOf, refundRest } from '../payments/refunds.ts';
import { getPayment, getRefund, yookassaOf } from '../payments/yookassa.ts';
import { cancelPaid, getBooking, holdRequest } from '../queries/bookings.ts';
import { revertHold } from '../transitions/hold.ts';
import { paymentsInOrder } from '../queries/guest.ts';
import { pricingRules } from '../queries/pricing.ts';
import { getCabin } from '../queries/cabins.ts';
import { getPaymentRow, paymentByRefund, setRefund } from '../queries/payments.ts';
import { getSettings } from '../queries/settings.ts';
import { sendPayLink } from '../notify/pay-link.ts';
import { idParam } from './params.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Оплата');

/** ЮKassa's notification as it arrives; only the object's id is taken from it, the rest is read back. */
const notificationSchema = z.object({
  type: z.literal('notification', { error: MSG.badInput }),
  event: z.string({ error: MSG.badInput }).max(100),
  object: z.object(
    {
      id: z.string({ error: MSG.badInput }).min(1).max(100),
      // A refund's payment, as ЮKassa's refund object names it.
      payment_id: z.string({ error: MSG.badInput }).min(1).max(100).optional(),
    },
    { error: MSG.badInput },
  ),
});

/**
 * ЮKassa's notifications (docs/api.md «Prepayment»): `payment.succeeded`, `payment.canceled`,
 * `refund.succeeded`. The notification's word is never taken: the payment (or refund) is read back
 * from ЮKassa's API with our keys and only that answer is acted on, so a forged or replayed
 * notification changes nothing; one for a payment (or refund) we never made is a 404.
 */
export const paymentRoutes = new Hono<AppEnv>().post(
  '/yookassa',
  doc('Уведомление ЮKassa о платеже (проверяется чтением платежа из ЮKassa)'),
  jsonBody,
  validate('json', notificationSchema),
  async (c) => {
    const { event, object } = c.req.valid('json');
    // A payment's notice says what it did, a refund's does not: one answer type for both, since
    // each inferred on its own, `{ ok: true }` would absorb the other and the client lose `outcome`.
    const done = (body: { ok: true; outcome?: PaymentOutcome }) => c.json(body);
    const shop = yookassaOf(c.env);
    if (!shop) return apiError(c, 404, MSG.paymentNotFound);
    if (event.startsWith('refund.')) {
      const row = await paymentByRefund(c.env, object.id);
      // A paid deposit's refund: read back, and written only if it is the deposit's own refund
      // moving forward, so this notice racing the refund's own answer writes it once.
      const deposit = row ? undefined : await depositByRefund(c.env, object.id, object.payment_id);
      if (deposit) {
        const refund = await getRefund(shop, object.id).catch(() => null);
        if (!refund) return apiError(c, 503, MSG.paymentReadBackFailed);
        if (refund.payment_id === deposit.id && deposit.decision) await setDepositRefund(c.env, deposit.id, refund);
        return done({ ok: true });
      }
      if (!row) {
        // A payment refunded twice (a late cancellation's part, then the owner's «Вернуть») names
        // only its latest refund. The earlier one, of a payment of ours and read back as such, has
        // nothing to change, and a 404 would have ЮKassa send it again for a day. ЮKassa is asked
        // only about a payment we know: a forged notice cannot make us call it at will.
        const ours = object.payment_id ? await getPaymentRow(c.env, object.payment_id) : undefined;
        const refund = ours ? await getRefund(shop, object.id).catch(() => null) : null;
        if (ours && refund?.payment_id === ours.id) return done({ ok: true });
        return apiError(c, 404, MSG.paymentNotFound);
      }
      const refund = await getRefund(shop, object.id);
      if (refund.payment_id === row.id && refund.status !== row.refundStatus)
        await setRefund(c.env, row.id, { refundId: refund.id, refundStatus: refund.status });
      return done({ ok: true });
    }
    const row = await getPaymentRow(c.env, object.id);
    if (!row) {
      // A deposit's hold: read back the same way, and only ЮKassa's answer moves it.
      const held = await getDeposit(c.env, object.id);
      if (!held) return apiError(c, 404, MSG.paymentNotFound);
      const answer = await getPayment(shop, held.id).catch(() => null);
      if (!answer) return apiError(c, 503, MSG.paymentReadBackFailed);
      await applyDepositAnswer(c.env, held, answer);
      return done({ ok: true });
    }
    // ЮKassa could not be read back: 503, and ЮKassa sends the notification again later.
    const answer = await getPayment(shop, row.id).catch((err: unknown) => {
      console.error(
        `Payment ${row.id} could not be read back for its notification; ЮKassa will send it again:`,
        messageForLog(err),
      );
      return null;
    });
    if (!answer) return apiError(c, 503, MSG.paymentReadBackFailed);
    const outcome = await applyPayment(c.env, row, answer, (label, task) => afterResponse(c, label, task));
    return done({ ok: true, outcome });
  },
);

/** The owner's side of prepayment: whether it can be on, a payment link for a request, a refund. */
export const paymentAdminRoutes = new Hono<AppEnv>()
  .get('/payments', doc('Подключена ли ЮKassa', { admin: true }), requireAdmin, (c) =>
    c.json({ configured: yookassaOf(c.env) !== null }),
  )
  /**
   * A payment link for a request received as «Заявка» (one tap in «Заявки»): the other platforms'
   * calendars are read again, the nights are held as for a guest paying on the site, and the link
   * goes into the reply to the guest.
   */
  .post(
    '/bookings/:id/payment-link',
    doc('Ссылка на оплату для новой заявки', { admin: true, errors: [404, 409, 502] }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      if (!yookassaOf(c.env)) return apiError(c, 400, MSG.paymentsNotConfigured);
      const id = c.req.valid('param').id;
      const before = await getBooking(c.env, id);
      if (!before) return apiError(c, 404, MSG.bookingNotFound);
      if (before.status !== 'new') return apiError(c, 409, MSG.paymentLinkTransition);
      await recheckFeeds(c.env, before.cabinId, (label, task) => afterResponse(c, label, task));
      const settings = await getSettings(c.env);
      const held = await holdRequest(c.env, id, holdUntilOf(settings.holdMinutes, now()));
      if (!held.ok)
        return apiError(
          c,
          held.reason === 'missing' ? 404 : 409,
          held.reason === 'taken'
            ? MSG.bookingNotFree
            : held.reason === 'missing'
              ? MSG.bookingNotFound
              : MSG.paymentLinkTransition,
        );
      const cabin = await getCabin(c.env, held.booking.cabinId);
      const { checkIn, checkOut, cabinId } = held.booking;
      const rules = (await pricingRules(c.env, checkIn, checkOut, [cabinId])).get(cabinId);
      try {
        const payment = await startPayment(c.env, held.booking, cabin?.name ?? '', {
          ...settings,
          firstNightPrice: rules ? nightPrice(checkIn, rules) : (cabin?.pricePerNight ?? 0),
          origin: c.env.SITE_URL || new URL(c.req.url).origin,
        });
        const origin = c.env.SITE_URL || new URL(c.req.url).origin;
        afterResponse(
          c,
          'Payment link to the guest’s messenger',
          sendPayLink(c.env, held.booking, cabin?.name ?? '', origin),
        );
        return c.json({ booking: held.booking, payment });
      } catch (err) {
        console.error(
          `The payment link of booking ${id} could not be created:`,
          err instanceof Error ? err.message : err,
        );
        await revertHold(c.env, id);
        return apiError(c, 502, MSG.paymentUnavailable);
      }
    },
  )
  /**
   * «Вернуть предоплату»: what is left of each paid payment goes back through ЮKassa, with its
   * receipt, and the booking is cancelled. After a guest's cancellation that is the part the
   * policy kept; a refund written down and not yet taken by ЮKassa is asked for first.
   */
  .post(
    '/bookings/:id/refund',
    doc('Вернуть оплату', { admin: true, errors: [404, 409, 502] }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const id = c.req.valid('param').id;
      const booking = await getBooking(c.env, id);
      if (!booking) return apiError(c, 404, MSG.bookingNotFound);
      const payments = await paymentsInOrder(c.env, id);
      const owed = payments.some(
        (p) => p.status === 'succeeded' && (p.amount > refundedOf(p) || (!p.refundId && (p.refundAmount ?? 0) > 0)),
      );
      if (!owed) return apiError(c, 409, MSG.paymentNothingPaid);
      if (!yookassaOf(c.env)) return apiError(c, 400, MSG.paymentsNotConfigured);
      const cabin = await getCabin(c.env, booking.cabinId);
      let refunded: string[];
      try {
        refunded = await refundRest(c.env, payments, booking, cabin?.name ?? '');
      } catch (err) {
        console.error(`A refund of booking ${id} failed:`, err instanceof Error ? err.message : err);
        return apiError(c, 502, MSG.paymentRefundFailed);
      }
      await cancelPaid(c.env, id);
      const after = await paymentsInOrder(c.env, id);
      return c.json({
        booking: await getBooking(c.env, id),
        payment: after.find((p) => p.id === refunded[0]) ?? null,
        payments: after,
        ...moneyOf(after),
      });
    },
  );
