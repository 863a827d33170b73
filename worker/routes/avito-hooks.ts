import { Hono } from 'hono';
import { z } from 'zod';
import { MSG } from '../../schema/messages.ts';
import { avitoHookSchema } from '../channels/avito-api.ts';
import { takeAvitoHook } from '../channels/avito-chats.ts';
import type { AppEnv } from '../env.ts';
import { afterResponse } from '../lib/background.ts';
import { apiError } from '../lib/errors.ts';
import { docs } from '../lib/openapi.ts';
import { limitBody } from '../middleware/body-limit.ts';

const doc = docs('Сообщения');

/**
 * Avito's webhook of the account's chats (subscribed by the schedule where SITE_URL is https,
 * worker/channels/avito-chats.ts): only at the secret path this site gave Avito, else 404 and
 * nothing read or changed. A guest's message is kept once, by Avito's id, before the 200; a
 * repeat changes nothing.
 */
export const avitoHookRoutes = new Hono<AppEnv>().post(
  '/avito/:secret',
  doc('Новое сообщение в чате Авито (вебхук)', {
    answer: z.object({ ok: z.literal(true) }),
    body: { media: 'application/json', schema: avitoHookSchema },
    errors: [400, 404],
    description:
      'Адрес с секретом сайт сообщает Авито сам (`POST /messenger/v3/webhook`). Сообщение гостя сохраняется ' +
      'один раз (по `id` сообщения Авито) до ответа 200; свои сообщения и служебные сообщения Авито не сохраняются.',
  }),
  limitBody(256 * 1024, MSG.requestTooLarge, MSG.badJson),
  async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      body = undefined;
    }
    const hook = avitoHookSchema.safeParse(body);
    const taken = await takeAvitoHook(
      c.env,
      c.req.param('secret'),
      hook.success ? hook.data : undefined,
      (label, task) => afterResponse(c, label, task),
    );
    if (taken === 'unknown') return apiError(c, 404, MSG.notFound);
    if (taken === 'bad') return apiError(c, 400, body === undefined ? MSG.badJson : MSG.badInput);
    return c.json({ ok: true as const });
  },
);
