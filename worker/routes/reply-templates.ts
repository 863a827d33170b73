import { Hono } from 'hono';
import { replyTemplatesSchema } from '../../schema/reply-templates.ts';
import type { AppEnv } from '../env.ts';
import { docs } from '../lib/openapi.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { readReplyTemplates, saveReplyTemplates } from '../queries/reply-templates.ts';

const doc = docs('Сообщения');

/**
 * The ready answers «Сообщения» offers, and the automatic answer to a guest who writes outside the
 * owner's hours (the owner and a manager alike: both answer guests).
 */
export const replyTemplateRoutes = new Hono<AppEnv>()
  .get(
    '/reply-templates',
    doc('Шаблоны ответов и автоответ', {
      admin: true,
      answer: replyTemplatesSchema,
      description:
        'Шаблоны с подстановками писем гостям ({имя}, {домик}, {заезд}, {выезд}, {ссылка}) и автоответ: ' +
        'с `from` до `to` по Москве (через полночь, если `to` раньше) гостю, написавшему в мессенджер, ' +
        'один раз за эти часы уходит `body`. Пока владелец ничего не сохранил — набор по умолчанию.',
    }),
    requireAdmin,
    async (c) => c.json(await readReplyTemplates(c.env)),
  )
  .put(
    '/reply-templates',
    doc('Сохранить шаблоны ответов и автоответ', {
      admin: true,
      answer: replyTemplatesSchema,
      description: 'Заменяет все шаблоны и автоответ целиком. Неизвестная подстановка — 400 с её описанием.',
    }),
    requireAdmin,
    jsonBody,
    validate('json', replyTemplatesSchema),
    async (c) => {
      const value = c.req.valid('json');
      await saveReplyTemplates(c.env, value);
      return c.json(value);
    },
  );
