import { currentOf, depositViewOf } from '../payments/deposits.ts';
import { allDeposits } from '../queries/deposits.ts';
import { Hono } from 'hono';
import { z } from 'zod';
import { BOOKING_THROTTLE, bookingStatusSchema, bookingSubmitSchema } from '../../schema/bookings.ts';
import { GUEST_PAGE_PATH } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import type { Booking } from '../../schema/tables.ts';
import { createGuestBooking, type BookingReason } from '../booking/create.ts';
import { priceForVisitor } from '../calendar/promo-limit.ts';
import type { AppEnv } from '../env.ts';
import { afterResponse } from '../lib/background.ts';
import { groupBy } from '../lib/group-by.ts';
import { clientIp } from '../lib/client-ip.ts';
import { apiError } from '../lib/errors.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { mailConfirmation } from '../notify/guest.ts';
import { smsConfirmation } from '../notify/guest-sms.ts';
import { maxConfirmation } from '../notify/guest-max.ts';
import { telegramConfirmation } from '../notify/guest-telegram.ts';
import { applyPayment } from '../payments/prepayment.ts';
import { expireHolds } from '../transitions/hold.ts';
import { moneyOf, refundedOf } from '../payments/refunds.ts';
import { getPayment, yookassaOf } from '../payments/yookassa.ts';
import {
  bookingByGuestToken,
  deleteBooking,
  listBookings,
  setBookingStatus,
  setConfirmationMail,
} from '../queries/bookings.ts';
import { getCabin } from '../queries/cabins.ts';
import { allPayments, paymentsOf } from '../queries/payments.ts';
import { hit } from '../queries/rate-limit.ts';
import { idParam } from './params.ts';
import { refusePrice } from './price-refusal.ts';
import { docs } from '../lib/openapi.ts';
import { bookingCreatedAnswer, successAnswer } from '../../schema/answers.ts';

const doc = docs('Бронирования');

/** The guest's own page, as a path (the site's pages and the API share the origin). */
const guestUrlOf = (b: Pick<Booking, 'guestToken'>) => `${GUEST_PAGE_PATH}${b.guestToken ?? ''}`;

/** The public address the guest returns to from ЮKassa: SITE_URL, else the one they came by. */
const originOf = (c: { env: { SITE_URL?: string }; req: { url: string } }) =>
  c.env.SITE_URL || new URL(c.req.url).origin;

/** How POST /api/bookings answers a stay that was priced but not booked (pricing refusals: refusePrice). */
const REFUSAL: Record<BookingReason, [400 | 409, string]> = {
  notFree: [409, MSG.bookingNotFree],
  tooShort: [400, MSG.bookingTooShort],
  promoUsedUp: [400, MSG.promoUsedUp],
};

/**
 * A visitor's booking: checked against the calendar's rules and priced by the server from the
 * owner's rules (schema/pricing.ts), then stored as a request or held for prepayment
 * (worker/booking/create.ts, which says how). This route only limits how often one address may
 * book (the address is the request's, so the limit is HTTP's), and turns the outcome into an
 * answer. The owner is told after the answer.
 */
export const bookingRoutes = new Hono<AppEnv>()
  .post(
    '/',
    doc('Заявка гостя или бронь с предоплатой', { status: 201, answer: bookingCreatedAnswer, errors: [404, 409, 429] }),
    jsonBody,
    validate('json', bookingSubmitSchema),
    async (c) => {
      const { website: _, consent: __, ...input } = c.req.valid('json');
      const count = await hit(c.env, `booking:${clientIp(c)}`, BOOKING_THROTTLE.windowMs);
      if (count > BOOKING_THROTTLE.max) return apiError(c, 429, MSG.bookingThrottled);
      const made = await createGuestBooking(c.env, input, {
        price: (req) => priceForVisitor(c, req),
        later: (label, task) => afterResponse(c, label, task),
        origin: originOf(c),
      });
      if (!made.ok) {
        if ('error' in made) return refusePrice(c, made);
        const [status, message] = REFUSAL[made.reason];
        return apiError(c, status, message);
      }
      const { booking, answer } = made;
      const base = { id: booking.id, ...answer, guestUrl: guestUrlOf(booking) };
      // One answer type for the three outcomes, as documented: each inferred on its own, the plain
      // request's would absorb the other two, and the typed client would not know `payment`.
      const created = (body: z.infer<typeof bookingCreatedAnswer>) => c.json(body, 201);
      if (made.kind === 'held') return created({ ...base, payment: made.payment });
      if (made.kind === 'fellBackToRequest') return created({ ...base, paymentError: MSG.paymentUnavailable });
      return created(base);
    },
  )
  /**
   * Where a booking with prepayment stands, for the guest back from ЮKassa's page (the return
   * address carries the booking's secret token). While it waits for the payment the payment is
   * read back from ЮKassa, so the page is right even before ЮKassa's notification arrives.
   */
  .get(
    '/:id/status',
    doc('Состояние брони после возврата со страницы оплаты (по секрету брони)', { errors: [404] }),
    validate('param', idParam),
    validate(
      'query',
      z.object({
        token: z.string({ error: MSG.bookingAccessDenied }).regex(/^[0-9a-f]{36}$/, MSG.bookingAccessDenied),
      }),
    ),
    async (c) => {
      const id = c.req.valid('param').id;
      const token = c.req.valid('query').token;
      let booking = await bookingByGuestToken(c.env, id, token);
      if (!booking) return apiError(c, 404, MSG.bookingNotFound);
      let [payment] = await paymentsOf(c.env, id);
      const shop = yookassaOf(c.env);
      if (payment && shop && booking.status === 'awaiting_payment') {
        try {
          await applyPayment(c.env, payment, await getPayment(shop, payment.id), (label, task) =>
            afterResponse(c, label, task),
          );
          booking = (await bookingByGuestToken(c.env, id, token)) ?? booking;
          [payment] = await paymentsOf(c.env, id);
        } catch (err) {
          console.error(`Payment ${payment.id} could not be read back:`, err instanceof Error ? err.message : err);
        }
      }
      return c.json({
        id: booking.id,
        cabinId: booking.cabinId,
        status: booking.status,
        checkIn: booking.checkIn,
        checkOut: booking.checkOut,
        nights: booking.nights,
        guests: booking.guests,
        total: booking.total,
        lines: booking.lines,
        holdUntil: booking.holdUntil,
        payment: payment
          ? {
              amount: payment.amount,
              status: payment.status,
              confirmationUrl: payment.status === 'pending' ? payment.confirmationUrl : '',
              refunded: payment.refundStatus === 'succeeded' || payment.refundStatus === 'pending',
            }
          : null,
      });
    },
  );

/** The owner's «Заявки»: every request, and the decisions on them, checked on the server. */
export const bookingAdminRoutes = new Hono<AppEnv>()
  // requireAdmin on each route: a sub-app's own `use` would also cover the other /admin routes (login).
  .get('/bookings', doc('Все заявки и брони', { admin: true }), requireAdmin, async (c) => {
    // Holds that ran out are shown as such at once, not at the next run of the schedule.
    afterResponse(c, 'Hold expiry notification', (await expireHolds(c.env)).send());
    const [list, payments, held] = await Promise.all([listBookings(c.env), allPayments(c.env), allDeposits(c.env)]);
    const depositsBy = groupBy(held, (d) => d.bookingId);
    const latest = new Map<number, (typeof payments)[number]>();
    const all = groupBy(payments, (p) => p.bookingId);
    for (const p of payments) if (!latest.has(p.bookingId)) latest.set(p.bookingId, p);
    return c.json(
      list.map((b) => {
        const p = latest.get(b.id);
        const own = all.get(b.id) ?? [];
        return {
          ...b,
          guestUrl: guestUrlOf(b),
          // Over every payment of the booking (the prepayment and the rest), kopecks: what the
          // guest has paid, refunds taken off; what went back; what «Вернуть предоплату» would still return.
          ...moneyOf(own),
          refundable: own.reduce((sum, x) => sum + (x.status === 'succeeded' ? x.amount - refundedOf(x) : 0), 0),
          // The deposit held on the guest's card, where one was paid: «Вернуть залог» / «Удержать …».
          deposit: depositViewOf(null, currentOf(depositsBy.get(b.id) ?? [])),
          payment: p
            ? {
                id: p.id,
                amount: p.amount,
                status: p.status,
                confirmationUrl: p.confirmationUrl,
                refundStatus: p.refundStatus,
                refundReason: p.refundReason,
                settlementReceipt: p.settlementReceipt,
              }
            : null,
        };
      }),
    );
  })
  // A confirmation changes only free dates, which the booking card reads live: no rebuild. It
  // also e-mails the guest where it can, and answers with whether that went (confirmationMail).
  .put(
    '/bookings/:id',
    doc('Сменить статус заявки', { admin: true, errors: [404, 409] }),
    requireAdmin,
    validate('param', idParam),
    jsonBody,
    validate('json', bookingStatusSchema),
    async (c) => {
      const result = await setBookingStatus(c.env, c.req.valid('param').id, c.req.valid('json').status);
      if (result.ok && result.booking.status === 'confirmed') {
        // The guest's e-mailed confirmation, where there is SMTP; whatever it does, the booking stays confirmed.
        const cabin = await getCabin(c.env, result.booking.cabinId);
        afterResponse(
          c,
          'The Telegram confirmation',
          telegramConfirmation(c.env, result.booking, cabin?.name ?? '', new URL(c.req.url).origin),
        );
        afterResponse(
          c,
          'The MAX confirmation',
          maxConfirmation(c.env, result.booking, cabin?.name ?? '', new URL(c.req.url).origin),
        );
        afterResponse(
          c,
          'The SMS confirmation',
          smsConfirmation(c.env, result.booking, cabin?.name ?? '', new URL(c.req.url).origin),
        );
        const mail = await mailConfirmation(
          c.env,
          result.booking,
          cabin?.name ?? '',
          undefined,
          new URL(c.req.url).origin,
        );
        if (mail) return c.json((await setConfirmationMail(c.env, result.booking.id, mail)) ?? result.booking);
      }
      if (result.ok) return c.json(result.booking);
      if (result.reason === 'missing') return apiError(c, 404, MSG.bookingNotFound);
      return apiError(c, 409, result.reason === 'taken' ? MSG.bookingNotFree : MSG.bookingTransition);
    },
  )
  .delete(
    '/bookings/:id',
    doc('Удалить заявку', { admin: true, answer: successAnswer, errors: [404, 409] }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const result = await deleteBooking(c.env, c.req.valid('param').id);
      if (result === 'missing') return apiError(c, 404, MSG.bookingNotFound);
      // Paid for: kept for the tax office, whoever asks; the owner cancels it instead.
      if (result === 'paid') return apiError(c, 409, MSG.bookingHasPayments);
      return c.json({ success: true });
    },
  );
