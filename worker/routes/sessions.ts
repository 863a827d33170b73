import { Hono } from 'hono';
import { sessionsQuerySchema } from '../../schema/account.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin } from '../middleware/session.ts';
import { endOtherSessions, endSession, listSessions } from '../queries/sessions.ts';
import { idParam } from './params.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Учётные записи');

/**
 * The signed-in sessions («Аккаунт»): a person sees and ends their own; the owner may also list
 * everyone's (`?all=1`) and end anyone's, such as a manager's left signed in on a lost phone.
 */
export const sessionRoutes = new Hono<AppEnv>()
  .get(
    '/sessions',
    doc('Сессии (свои или, владельцу, все)', { admin: true }),
    requireAdmin,
    validate('query', sessionsQuerySchema),
    async (c) => {
      const user = c.get('user')!;
      const all = c.req.valid('query').all === '1';
      if (all && user.role !== 'owner') return apiError(c, 403, MSG.forbidden);
      return c.json(await listSessions(c.env, c.get('session')!.id, all ? null : user.id));
    },
  )
  .delete(
    '/sessions/:id',
    doc('Завершить сессию', { admin: true, errors: [404] }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const user = c.get('user')!;
      if (!(await endSession(c.env, c.req.valid('param').id, user.role === 'owner' ? null : user.id)))
        return apiError(c, 404, MSG.sessionNotFound);
      return c.json({ success: true as const });
    },
  )
  .delete('/sessions', doc('Завершить все свои сессии, кроме текущей', { admin: true }), requireAdmin, async (c) =>
    c.json({ success: true as const, ended: await endOtherSessions(c.env, c.get('user')!.id, c.get('session')!.id) }),
  );
