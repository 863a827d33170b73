import { Hono } from 'hono';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { validate } from '../lib/validate.ts';
import { getCabin } from '../queries/cabins.ts';
import { getCalendarSettings, horizon, listSeasons, mergeRanges, sourcedBusy } from '../queries/calendar.ts';
import { chargesOf, getSettings } from '../queries/settings.ts';
import { yookassaOf } from '../payments/yookassa.ts';
import { idParam } from './params.ts';

/**
 * Free dates read live by the booking card (the static page needs no rebuild when a feed
 * changes): busy nights for the next 12 months without names or sources, the seasons and the
 * base price and minimum stay, the charges beyond the nights and how a stay is booked (a
 * request, or a booking with prepayment). Small, and cacheable for a minute.
 */
export const availabilityRoutes = new Hono<AppEnv>().get('/:id/availability', validate('param', idParam), async (c) => {
  const id = c.req.valid('param').id;
  const cabin = await getCabin(c.env, id);
  if (!cabin || !cabin.active) return apiError(c, 404, MSG.cabinNotFound);
  const { from, to } = horizon();
  const [busy, seasonRows, settings, site] = await Promise.all([sourcedBusy(c.env, id, from, to), listSeasons(c.env, id), getCalendarSettings(c.env, id), getSettings(c.env)]);
  c.header('cache-control', 'public, max-age=60');
  return c.json({
    from,
    to,
    busy: mergeRanges(busy, from, to),
    seasons: seasonRows.filter((s) => s.end > from && s.start < to).map(({ start, end, pricePerNight, minNights }) => ({ start, end, pricePerNight, minNights })),
    pricePerNight: cabin.pricePerNight,
    minNights: settings.minNights,
    // The fee and the tax the card adds to every stay, with the same function as the server (quoteStay).
    charges: chargesOf(site),
    // With prepayment on (and the shop's keys set), the card's last step is «Оплатить N ₽».
    bookingMode: site.bookingMode === 'prepayment' && yookassaOf(c.env) ? 'prepayment' : 'request',
    prepayment: site.prepayment,
  });
});
