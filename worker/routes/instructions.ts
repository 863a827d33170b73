import { Hono } from 'hono';
import { instructionsSchema } from '../../schema/instructions.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { cabinExists, getInstructions, setInstructions } from '../queries/guest.ts';
import { idParam } from './params.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Письма гостям');

/**
 * A cabin's arrival instructions: check-in, keys, Wi-Fi, shown only on the guest's own
 * page once their stay is confirmed, never in a public read; so a change needs no rebuild.
 */
export const instructionsAdminRoutes = new Hono<AppEnv>()
  .get(
    '/cabins/:id/instructions',
    doc('Как добраться и заселиться: текст для подтверждённых гостей', { admin: true, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const id = c.req.valid('param').id;
      if (!(await cabinExists(c.env, id))) return apiError(c, 404, MSG.cabinNotFound);
      return c.json({ text: await getInstructions(c.env, id) });
    },
  )
  .put(
    '/cabins/:id/instructions',
    doc('Изменить инструкции для гостей', { admin: true, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    jsonBody,
    validate('json', instructionsSchema),
    async (c) => {
      const id = c.req.valid('param').id;
      if (!(await cabinExists(c.env, id))) return apiError(c, 404, MSG.cabinNotFound);
      return c.json({ text: await setInstructions(c.env, id, c.req.valid('json').text) });
    },
  );
