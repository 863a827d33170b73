import { Hono } from 'hono';
import { cabinCreateSchema, cabinUpdateSchema } from '../../schema/cabins.ts';
import { API_CABINS_PAGE_SIZE } from '../../schema/constants.ts';
import { CABIN_DEFAULTS } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { publishOnSuccess } from '../lib/publish.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { createCabin, deleteCabin, getCabin, listCabinsPage, updateCabin } from '../queries/cabins.ts';
import { idParam, pageQuery } from './params.ts';
import { docs } from '../lib/openapi.ts';
import { cabinAnswer, cabinListAnswer, successAnswer } from '../../schema/answers.ts';

const doc = docs('Домики');

export const cabinRoutes = new Hono<AppEnv>()
  // Paged, so the public list stays small at any catalogue size: the array of one page, the
  // count in X-Total-Count and the next page in a Link header (RFC 8288) while there is one.
  .get(
    '/',
    doc('Активные домики, по 100 на страницу (число в X-Total-Count, следующая страница в Link)', {
      answer: cabinListAnswer,
    }),
    validate('query', pageQuery),
    async (c) => {
      const page = c.req.valid('query').page ?? 1;
      const { cabins, total } = await listCabinsPage(c.env, page, API_CABINS_PAGE_SIZE);
      c.header('X-Total-Count', String(total));
      if (page * API_CABINS_PAGE_SIZE < total) c.header('Link', `</api/cabins?page=${page + 1}>; rel="next"`);
      return c.json(cabins);
    },
  )
  .get('/:id', doc('Домик', { answer: cabinAnswer, errors: [404] }), validate('param', idParam), async (c) => {
    const cabin = await getCabin(c.env, c.req.valid('param').id);
    if (!cabin || !cabin.active) return apiError(c, 404, MSG.cabinNotFound);
    return c.json(cabin);
  })
  .post(
    '/',
    doc('Новый домик', { admin: true, status: 201, answer: cabinAnswer }),
    requireAdmin,
    jsonBody,
    validate('json', cabinCreateSchema),
    publishOnSuccess,
    async (c) => {
      const input = c.req.valid('json');
      if (input.baseGuests != null && input.baseGuests > (input.maxGuests ?? CABIN_DEFAULTS.maxGuests))
        return apiError(c, 400, MSG.baseGuestsOverMax);
      return c.json(await createCabin(c.env, input), 201);
    },
  )
  .put(
    '/:id',
    doc('Изменить домик', { admin: true, answer: cabinAnswer, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    jsonBody,
    validate('json', cabinUpdateSchema),
    publishOnSuccess,
    async (c) => {
      const id = c.req.valid('param').id;
      const patch = c.req.valid('json');
      // The guests the price includes never exceed the guests the cabin takes, whichever of the two changes.
      if (patch.baseGuests != null || patch.maxGuests !== undefined) {
        const before = await getCabin(c.env, id);
        if (!before) return apiError(c, 404, MSG.cabinNotFound);
        const base = patch.baseGuests !== undefined ? patch.baseGuests : before.baseGuests;
        if (base != null && base > (patch.maxGuests ?? before.maxGuests))
          return apiError(c, 400, MSG.baseGuestsOverMax);
      }
      const cabin = await updateCabin(c.env, id, patch);
      if (!cabin) return apiError(c, 404, MSG.cabinNotFound);
      return c.json(cabin);
    },
  )
  .delete(
    '/:id',
    doc('Удалить домик (нельзя, пока есть бронирования)', { admin: true, answer: successAnswer, errors: [404, 409] }),
    requireAdmin,
    validate('param', idParam),
    publishOnSuccess,
    async (c) => {
      const result = await deleteCabin(c.env, c.req.valid('param').id);
      if (result === 'missing') return apiError(c, 404, MSG.cabinNotFound);
      if (result === 'booked') return apiError(c, 409, MSG.cabinHasBookings);
      return c.json({ success: true });
    },
  );
