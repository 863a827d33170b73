import { Hono } from 'hono';
import { cabinCreateSchema, cabinUpdateSchema } from '../../schema/cabins.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { publishOnSuccess } from '../lib/publish.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { createCabin, deleteCabin, getCabin, listCabins, updateCabin } from '../queries/cabins.ts';
import { idParam } from './params.ts';

export const cabinRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await listCabins(c.env)))
  .get('/:id', validate('param', idParam), async (c) => {
    const cabin = await getCabin(c.env, c.req.valid('param').id);
    if (!cabin || !cabin.active) return apiError(c, 404, MSG.cabinNotFound);
    return c.json(cabin);
  })
  .post('/', requireAdmin, jsonBody, validate('json', cabinCreateSchema), publishOnSuccess, async (c) => {
    return c.json(await createCabin(c.env, c.req.valid('json')), 201);
  })
  .put('/:id', requireAdmin, validate('param', idParam), jsonBody, validate('json', cabinUpdateSchema), publishOnSuccess, async (c) => {
    const cabin = await updateCabin(c.env, c.req.valid('param').id, c.req.valid('json'));
    if (!cabin) return apiError(c, 404, MSG.cabinNotFound);
    return c.json(cabin);
  })
  .delete('/:id', requireAdmin, validate('param', idParam), publishOnSuccess, async (c) => {
    if (!(await deleteCabin(c.env, c.req.valid('param').id))) return apiError(c, 404, MSG.cabinNotFound);
    return c.json({ success: true });
  });
