import { Hono } from 'hono';
import { userCreateSchema } from '../../schema/account.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { hashPassword } from '../lib/password.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { createUser, deleteUser, listUsers, userView } from '../queries/users.ts';
import { idParam } from './params.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Учётные записи');

/** The people who sign in (the owner's alone: worker/middleware/roles.ts). */
export const userRoutes = new Hono<AppEnv>()
  .get('/users', doc('Люди с доступом к панели', { admin: true }), requireAdmin, async (c) =>
    c.json(await listUsers(c.env)),
  )
  .post(
    '/users',
    doc('Добавить менеджера', { admin: true, status: 201, errors: [409] }),
    requireAdmin,
    jsonBody,
    validate('json', userCreateSchema),
    async (c) => {
      const { username, password, role } = c.req.valid('json');
      const user = await createUser(c.env, { username, role, passwordHash: await hashPassword(password) });
      if (!user) return apiError(c, 409, MSG.usernameTaken);
      return c.json(userView(user), 201);
    },
  )
  // Their sessions end with them; the last owner stays, so someone can always sign in and manage.
  .delete(
    '/users/:id',
    doc('Удалить менеджера', { admin: true, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const result = await deleteUser(c.env, c.req.valid('param').id);
      if (result === 'missing') return apiError(c, 404, MSG.userNotFound);
      if (result === 'lastOwner') return apiError(c, 409, MSG.lastOwner);
      return c.json({ success: true as const });
    },
  );
