import { Hono } from 'hono';
import { BOOKING_THROTTLE, bookingStatusSchema, bookingSubmitSchema } from '../../schema/bookings.ts';
import { MSG } from '../../schema/messages.ts';
import { quoteStay } from '../calendar/pricing.ts';
import type { AppEnv } from '../env.ts';
import { afterResponse } from '../lib/background.ts';
import { clientIp } from '../lib/client-ip.ts';
import { apiError } from '../lib/errors.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { mailConfirmation } from '../notify/guest.ts';
import { bookingNotice } from '../notify/notices.ts';
import { notifyOwner } from '../notify/owner.ts';
import { createBooking, deleteBooking, listBookings, nightsTaken, setBookingStatus, setConfirmationMail } from '../queries/bookings.ts';
import { getCalendarSettings, listSeasons } from '../queries/calendar.ts';
import { getCabin } from '../queries/cabins.ts';
import { hit } from '../queries/rate-limit.ts';
import { idParam } from './params.ts';

/**
 * A visitor's booking request (issue 11): checked against the calendar's rules and stored as
 * «Новая» with the server's total, whatever happens to the messenger afterwards; the owner is
 * told by Telegram and e-mail after the answer. Requests for the same nights are all kept: the
 * owner confirms one, and only then do its nights turn busy.
 */
export const bookingRoutes = new Hono<AppEnv>().post('/', jsonBody, validate('json', bookingSubmitSchema), async (c) => {
  const input = c.req.valid('json');
  const count = await hit(c.env, `booking:${clientIp(c)}`, BOOKING_THROTTLE.windowMs);
  if (count > BOOKING_THROTTLE.max) return apiError(c, 429, MSG.bookingThrottled);
  const cabin = await getCabin(c.env, input.cabinId);
  if (!cabin || !cabin.active) return apiError(c, 404, MSG.cabinNotFound);
  if (input.guests > cabin.maxGuests) return apiError(c, 400, MSG.bookingTooManyGuests);
  const [seasons, settings] = await Promise.all([listSeasons(c.env, cabin.id), getCalendarSettings(c.env, cabin.id)]);
  const quote = quoteStay({ pricePerNight: cabin.pricePerNight, minNights: settings.minNights }, seasons, input.checkIn, input.checkOut);
  if (quote.nights < quote.minNights) return apiError(c, 400, MSG.bookingTooShort);
  if (await nightsTaken(c.env, cabin.id, input.checkIn, input.checkOut)) return apiError(c, 409, MSG.bookingNotFree);
  const booking = await createBooking(c.env, input, quote);
  afterResponse(c, 'Booking notification', notifyOwner(c.env, bookingNotice(booking, cabin.name, c.env.SITE_URL)));
  return c.json({ id: booking.id, nights: booking.nights, total: booking.total }, 201);
});

/** The owner's «Заявки»: every request, and the decisions on them, checked on the server. */
export const bookingAdminRoutes = new Hono<AppEnv>()
  // requireAdmin on each route: a sub-app's own `use` would also cover the other /admin routes (login).
  .get('/bookings', requireAdmin, async (c) => c.json(await listBookings(c.env)))
  // A confirmation changes only free dates, which the booking card reads live: no rebuild. It
  // also e-mails the guest where it can, and answers with whether that went (confirmationMail).
  .put('/bookings/:id', requireAdmin, validate('param', idParam), jsonBody, validate('json', bookingStatusSchema), async (c) => {
    const result = await setBookingStatus(c.env, c.req.valid('param').id, c.req.valid('json').status);
    if (result.ok && result.booking.status === 'confirmed') {
      // The guest's e-mailed confirmation, where there is SMTP; whatever it does, the booking stays confirmed.
      const cabin = await getCabin(c.env, result.booking.cabinId);
      const mail = await mailConfirmation(c.env, result.booking, cabin?.name ?? '');
      if (mail) return c.json((await setConfirmationMail(c.env, result.booking.id, mail)) ?? result.booking);
    }
    if (result.ok) return c.json(result.booking);
    if (result.reason === 'missing') return apiError(c, 404, MSG.bookingNotFound);
    return apiError(c, 409, result.reason === 'taken' ? MSG.bookingNotFree : MSG.bookingTransition);
  })
  .delete('/bookings/:id', requireAdmin, validate('param', idParam), async (c) => {
    if (!(await deleteBooking(c.env, c.req.valid('param').id))) return apiError(c, 404, MSG.bookingNotFound);
    return c.json({ success: true });
  });
