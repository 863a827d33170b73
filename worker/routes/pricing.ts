import { Hono, type MiddlewareHandler } from 'hono';
import { BOOKING_MAX_NIGHTS } from '../../schema/booking-options.ts';
import { QUOTE_THROTTLE } from '../../schema/constants.ts';
import { nightsBetween, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import {
  datePricesBodySchema,
  pricingBodySchema,
  pricingFieldName,
  promoCodesBodySchema,
  quoteQuerySchema,
} from '../../schema/pricing-input.ts';
import { priceForVisitor } from '../calendar/promo-limit.ts';
import type { AppEnv } from '../env.ts';
import { clientAddressKey } from '../lib/client-ip.ts';
import { now } from '../lib/clock.ts';
import { apiError } from '../lib/errors.ts';
import { publishOnSuccess } from '../lib/publish.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { getCabin } from '../queries/cabins.ts';
import {
  listDatePrices,
  listDiscounts,
  listExtras,
  listPromoCodes,
  replaceDatePrices,
  replacePromoCodes,
  savePricing,
} from '../queries/pricing.ts';
import { hit } from '../queries/rate-limit.ts';
import { idParam } from './params.ts';
import { refusePrice } from './price-refusal.ts';
import { docs } from '../lib/openapi.ts';
import { quoteAnswer } from '../../schema/answers.ts';

const doc = docs('Цены');

/**
 * Prices the way owners sell (docs/api.md «Pricing»): the discounts and extras, the promo
 * codes, single nights' prices, and the public quote the booking card shows, which is exactly the
 * price POST /bookings stores.
 */
export const pricingAdminRoutes = new Hono<AppEnv>()
  .get('/pricing', doc('Скидки и доп. услуги', { admin: true }), requireAdmin, async (c) =>
    c.json({ discounts: await listDiscounts(c.env), extras: await listExtras(c.env) }),
  )
  .put(
    '/pricing',
    doc('Заменить скидки и доп. услуги', { admin: true }),
    requireAdmin,
    jsonBody,
    validate('json', pricingBodySchema, pricingFieldName),
    async (c) => {
      const saved = await savePricing(c.env, c.req.valid('json'));
      if (!saved.ok) return apiError(c, 400, saved.error);
      return c.json({ discounts: await listDiscounts(c.env), extras: await listExtras(c.env) });
    },
  )
  .get('/promo-codes', doc('Промокоды (с числом использований)', { admin: true }), requireAdmin, async (c) =>
    c.json({ codes: await listPromoCodes(c.env) }),
  )
  .put(
    '/promo-codes',
    doc('Заменить промокоды', { admin: true }),
    requireAdmin,
    jsonBody,
    validate('json', promoCodesBodySchema, pricingFieldName),
    async (c) => c.json({ codes: await replacePromoCodes(c.env, c.req.valid('json').codes) }),
  )
  .get(
    '/cabins/:id/date-prices',
    doc('Цены на отдельные даты', { admin: true, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const id = c.req.valid('param').id;
      if (!(await getCabin(c.env, id))) return apiError(c, 404, MSG.cabinNotFound);
      return c.json({ prices: await listDatePrices(c.env, id) });
    },
  )
  // A single night's price can be the cabin's lowest or highest («от N ₽» on the pages): it publishes.
  .put(
    '/cabins/:id/date-prices',
    doc('Заменить цены на отдельные даты', { admin: true, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    jsonBody,
    validate('json', datePricesBodySchema, pricingFieldName),
    publishOnSuccess,
    async (c) => {
      const id = c.req.valid('param').id;
      if (!(await getCabin(c.env, id))) return apiError(c, 404, MSG.cabinNotFound);
      await replaceDatePrices(c.env, id, c.req.valid('json').prices, todayInMoscow(now()));
      return c.json({ prices: await listDatePrices(c.env, id) });
    },
  );

/** Every price one address asks for counts (QUOTE_THROTTLE): plenty for a guest tapping dates, not for a script. */
const quoteLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  if ((await hit(c.env, `quote:${clientAddressKey(c)}`, QUOTE_THROTTLE.windowMs)) <= QUOTE_THROTTLE.max) return next();
  c.header('Retry-After', String(QUOTE_THROTTLE.windowMs / 1000));
  return apiError(c, 429, MSG.quoteThrottled);
};

/**
 * GET /api/quote: the price of a stay for the adults, the children by age and pets, with the extras
 * ticked and the code typed; a stay its season closes (the day of arrival or departure, the
 * longest stay) or pets where none may come are a 400 saying why, and a code that does not apply too, and too many of those from one address a 429 (priceForVisitor).
 */
export const quoteRoutes = new Hono<AppEnv>().get(
  '/',
  doc('Расчёт стоимости проживания (тот же, что у заявки)', { answer: quoteAnswer, errors: [404, 429] }),
  quoteLimit,
  validate('query', quoteQuerySchema),
  async (c) => {
    const q = c.req.valid('query');
    if (q.checkOut <= q.checkIn) return apiError(c, 400, MSG.dateRangeInvalid);
    if (q.checkIn < todayInMoscow(now())) return apiError(c, 400, MSG.bookingCheckInPast);
    if (nightsBetween(q.checkIn, q.checkOut) > BOOKING_MAX_NIGHTS) return apiError(c, 400, MSG.bookingTooLong);
    const result = await priceForVisitor(c, { ...q, extras: q.extras ?? [] });
    if (!result.ok) return refusePrice(c, result);
    const { quote } = result.priced;
    return c.json({
      nights: quote.nights,
      total: quote.total,
      lines: quote.lines,
      minNights: quote.minNights,
      maxNights: quote.maxNights,
      extras: quote.extras,
      withheld: quote.withheld,
    });
  },
);
