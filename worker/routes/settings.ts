import { Hono } from 'hono';
import { settingsUpdateSchema } from '../../schema/settings.ts';
import type { AppEnv } from '../env.ts';
import { MSG } from '../../schema/messages.ts';
import { apiError } from '../lib/errors.ts';
import { publishOnSuccess } from '../lib/publish.ts';
import { yookassaOf } from '../payments/yookassa.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { getPublicSettings, updateSettings } from '../queries/settings.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Настройки');

export const settingsRoutes = new Hono<AppEnv>()
  .get('/', doc('Публичные настройки сайта'), async (c) => c.json(await getPublicSettings(c.env)))
  .put(
    '/',
    doc('Изменить настройки', { admin: true }),
    requireAdmin,
    jsonBody,
    validate('json', settingsUpdateSchema),
    publishOnSuccess,
    async (c) => {
      const patch = c.req.valid('json');
      // Prepayment takes money through ЮKassa: without its keys it cannot be on, and the owner is told why.
      if (patch.bookingMode === 'prepayment' && !yookassaOf(c.env)) return apiError(c, 400, MSG.paymentsNotConfigured);
      return c.json(await updateSettings(c.env, patch));
    },
  );
