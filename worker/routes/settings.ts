import { Hono } from 'hono';
import { settingsUpdateSchema } from '../../schema/settings.ts';
import type { AppEnv } from '../env.ts';
import { publishOnSuccess } from '../lib/publish.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { getPublicSettings, updateSettings } from '../queries/settings.ts';

export const settingsRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json(await getPublicSettings(c.env)))
  .put('/', requireAdmin, jsonBody, validate('json', settingsUpdateSchema), publishOnSuccess, async (c) =>
    c.json(await updateSettings(c.env, c.req.valid('json'))),
  );
