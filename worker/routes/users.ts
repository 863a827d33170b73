import { Hono } from 'hono';
import { userCreateSchema } from '../../schema/account.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { hashPassword } from '../lib/password.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { makeSignInLink, revokeSignInLink } from '../queries/sign-in-links.ts';
import { createUser, deleteUser, listUsers, userView } from '../queries/users.ts';
import { signInLinkAnswer, successAnswer } from '../../schema/answers.ts';
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
    doc('Добавить менеджера, владельца или уборщика', {
      admin: true,
      status: 201,
      errors: [404, 409],
      description:
        'Менеджер и владелец — с паролем. Уборщик — с `cabinIds` (домики, которые он убирает) и без пароля: ' +
        'он входит по личной ссылке (`POST /api/admin/users/{id}/link`).',
    }),
    requireAdmin,
    jsonBody,
    validate('json', userCreateSchema),
    async (c) => {
      const { username, password, role, cabinIds } = c.req.valid('json');
      // A cleaner has no password to type: the hash of one nobody knows keeps the row as every other.
      const secret = password ?? [...crypto.getRandomValues(new Uint8Array(32))].join('.');
      const made = await createUser(c.env, { username, role, cabinIds, passwordHash: await hashPassword(secret) });
      if (made === 'taken') return apiError(c, 409, MSG.usernameTaken);
      if (made === 'noCabin') return apiError(c, 404, MSG.cabinNotFound);
      return c.json(userView(made.user, made.cabinIds), 201);
    },
  )
  // The address is shown once: only the token's hash is kept, and «Журнал» records that a link was
  // made, never the link.
  .post(
    '/users/:id/link',
    doc('Личная ссылка для входа уборщика', {
      admin: true,
      answer: signInLinkAnswer,
      errors: [404, 409],
      description:
        'Новая ссылка вместо прежней (прежняя перестаёт действовать). По ссылке уборщик входит без пароля и ' +
        'попадает в «Сегодня». Ссылка показывается один раз: хранится только её хеш.',
    }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const made = await makeSignInLink(c.env, c.req.valid('param').id);
      if (made === 'missing') return apiError(c, 404, MSG.userNotFound);
      if (made === 'notCleaner') return apiError(c, 409, MSG.notCleaner);
      const origin = (c.env.SITE_URL || new URL(c.req.url).origin).replace(/\/$/, '');
      return c.json({ url: `${origin}/enter/${made.token}`, createdAt: made.createdAt });
    },
  )
  .delete(
    '/users/:id/link',
    doc('Отозвать ссылку для входа уборщика', {
      admin: true,
      answer: successAnswer,
      errors: [404, 409],
      description: 'Ссылка перестаёт действовать, и все сеансы уборщика завершаются сразу.',
    }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const result = await revokeSignInLink(c.env, c.req.valid('param').id);
      if (result === 'missing') return apiError(c, 404, MSG.userNotFound);
      if (result === 'notCleaner') return apiError(c, 409, MSG.notCleaner);
      return c.json({ success: true as const });
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
