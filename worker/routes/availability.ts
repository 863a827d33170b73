import { Hono } from 'hono';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { validate } from '../lib/validate.ts';
import { getCabin } from '../queries/cabins.ts';
import { horizon, mergeRanges, sourcedBusy } from '../queries/calendar.ts';
import { pricingRules } from '../queries/pricing.ts';
import { getSettings } from '../queries/settings.ts';
import { yookassaOf } from '../payments/yookassa.ts';
import { idParam } from './params.ts';
import { docs } from '../lib/openapi.ts';
import { availabilityAnswer } from '../../schema/answers.ts';

const doc = docs('Домики');

/**
 * Free dates read live by the booking card (the static page needs no rebuild when a feed
 * changes): busy nights for the next 12 months without names or sources, the seasons and the
 * base price and minimum stay, the charges beyond the nights and how a stay is booked (a
 * request, or a booking with prepayment). Small, and cacheable for a minute.
 */
export const availabilityRoutes = new Hono<AppEnv>().get(
  '/:id/availability',
  doc('Занятые ночи на 12 месяцев и всё, чем карточка считает цену', { answer: availabilityAnswer, errors: [404] }),
  validate('param', idParam),
  async (c) => {
    const id = c.req.valid('param').id;
    const cabin = await getCabin(c.env, id);
    if (!cabin || !cabin.active) return apiError(c, 404, MSG.cabinNotFound);
    const { from, to } = horizon();
    const [busy, rulesOf, site] = await Promise.all([
      sourcedBusy(c.env, id, from, to),
      pricingRules(c.env, from, to, [id]),
      getSettings(c.env),
    ]);
    const rules = rulesOf.get(id)!;
    c.header('cache-control', 'public, max-age=60');
    return c.json({
      from,
      to,
      busy: mergeRanges(busy, from, to),
      // With their rule of days: the card greys out the weekdays closed to arrival or departure.
      seasons: rules.seasons.map((s) => ({
        start: s.start,
        end: s.end,
        pricePerNight: s.pricePerNight,
        minNights: s.minNights,
        weekendPricePerNight: s.weekendPricePerNight ?? null,
        closedToArrival: s.closedToArrival ?? [],
        closedToDeparture: s.closedToDeparture ?? [],
        maxNights: s.maxNights ?? null,
      })),
      pricePerNight: cabin.pricePerNight,
      minNights: rules.cabin.minNights,
      // Everything else the card prices with, by the same function as the server (schema/pricing.ts
      // quoteStay): weekends, single dates, the guests the price includes, discounts, extras, and the
      // fee and the tax every stay carries. A promo code is priced by GET /api/quote alone.
      weekendPricePerNight: rules.cabin.weekendPricePerNight,
      weekendNights: rules.cabin.weekendNights,
      baseGuests: rules.cabin.baseGuests,
      extraGuestPerNight: rules.cabin.extraGuestPerNight,
      // Children by age, and whether pets may come (the card shows the checkbox only then) and their fee.
      children: cabin.children,
      pets: cabin.pets,
      datePrices: rules.datePrices.map(({ date, price }) => ({ date, price })),
      discounts: rules.discounts,
      extras: rules.extras,
      charges: rules.charges,
      // With prepayment on (and the shop's keys set), the card's last step is «Оплатить N ₽».
      bookingMode: site.bookingMode === 'prepayment' && yookassaOf(c.env) ? 'prepayment' : 'request',
      prepayment: site.prepayment,
    });
  },
);
