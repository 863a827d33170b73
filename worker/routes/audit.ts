import { Hono } from 'hono';
import { auditQuerySchema } from '../../schema/account.ts';
import type { AppEnv } from '../env.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin } from '../middleware/session.ts';
import { listAudit } from '../queries/audit.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Учётные записи');

/**
 * «Журнал» (the owner's): every admin write, sign-in and refusal, newest first. Read only: no
 * route edits or deletes an entry; the schedule forgets them after a year.
 */
export const auditRoutes = new Hono<AppEnv>().get(
  '/audit',
  doc('Журнал действий', { admin: true }),
  requireAdmin,
  validate('query', auditQuerySchema),
  async (c) => c.json(await listAudit(c.env, c.req.valid('query'))),
);
