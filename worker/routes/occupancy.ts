import { Hono } from 'hono';
import { todayInMoscow } from '../../schema/dates.ts';
import { OCCUPANCY_DEFAULT_DAYS, occupancyQuerySchema } from '../../schema/search.ts';
import type { AppEnv } from '../env.ts';
import { now } from '../lib/clock.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin } from '../middleware/session.ts';
import { occupancy } from '../queries/occupancy.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Поиск');

/** The owner's «Шахматка»: every cabin against the days, each night marked by what holds it. */
export const occupancyRoutes = new Hono<AppEnv>().get(
  '/occupancy',
  doc('Шахматка: занятость всех домиков по дням', { admin: true }),
  requireAdmin,
  validate('query', occupancyQuerySchema),
  async (c) => {
    const q = c.req.valid('query');
    return c.json(await occupancy(c.env, q.from ?? todayInMoscow(now()), q.days ?? OCCUPANCY_DEFAULT_DAYS));
  },
);
