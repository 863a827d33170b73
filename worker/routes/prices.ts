import { Hono } from 'hono';
import type { AppEnv } from '../env.ts';
import { priceRanges } from '../queries/calendar.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Цены');

/**
 * Every active cabin's price range over the next 12 months (base price and seasons): the build
 * reads it once for «от N ₽» on cards and pages and the JSON-LD price range.
 */
export const priceRoutes = new Hono<AppEnv>().get(
  '/',
  doc('Диапазон цен каждого активного домика на 12 месяцев'),
  async (c) => c.json({ prices: await priceRanges(c.env) }),
);
