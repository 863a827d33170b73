import { Hono } from 'hono';
import { checklistUpdateSchema } from '../../schema/onboarding.ts';
import type { AppEnv } from '../env.ts';
import { publishOnSuccess } from '../lib/publish.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { readChecklist, setChecklistDismissed } from '../queries/checklist.ts';
import { demoSummary, removeDemo } from '../queries/demo.ts';
import { accountFacts } from '../queries/account-facts.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Панель');

/**
 * The owner's first hour: «С чего начать», each step done or not as the data says, its
 * dismissal, and «Убрать демо-данные», which takes away what the demo seeded and the owner has not
 * changed (and publishes the site without it).
 */
export const onboardingRoutes = new Hono<AppEnv>()
  .get('/checklist', doc('Первые шаги владельца', { admin: true }), requireAdmin, async (c) =>
    c.json(await readChecklist(c.env, await accountFacts(c.env))),
  )
  .put(
    '/checklist',
    doc('Отметить шаг', { admin: true }),
    requireAdmin,
    jsonBody,
    validate('json', checklistUpdateSchema),
    async (c) => {
      await setChecklistDismissed(c.env, c.req.valid('json').dismissed);
      return c.json(await readChecklist(c.env, await accountFacts(c.env)));
    },
  )
  .get('/demo', doc('Что осталось от демо-данных', { admin: true }), requireAdmin, async (c) =>
    c.json({ demo: await demoSummary(c.env) }),
  )
  .delete('/demo', doc('Удалить демо-данные', { admin: true }), requireAdmin, publishOnSuccess, async (c) =>
    c.json({ removed: await removeDemo(c.env) }),
  );
