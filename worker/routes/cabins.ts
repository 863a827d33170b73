import { Hono } from 'hono';
import { cabinCreateSchema, cabinUpdateSchema } from '../../schema/cabins.ts';
import { API_CABINS_PAGE_SIZE } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { publishOnSuccess } from '../lib/publish.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { createCabin, deleteCabin, getCabin, listCabinsPage, updateCabin } from '../queries/cabins.ts';
import { idParam, pageQuery } from './params.ts';

export const cabinRoutes = new Hono<AppEnv>()
  // Paged, so the public list stays small at any catalogue size: the array of one page, the
  // count in X-Total-Count and the next page in a Link header (RFC 8288) while there is one.
  .get('/', validate('query', pageQuery), async (c) => {
    const page = c.req.valid('query').page ?? 1;
    const { cabins, total } = await listCabinsPage(c.env, page, API_CABINS_PAGE_SIZE);
    c.header('X-Total-Count', String(total));
    if (page * API_CABINS_PAGE_SIZE < total) c.header('Link', `</api/cabins?page=${page + 1}>; rel="next"`);
    return c.json(cabins);
  })
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
