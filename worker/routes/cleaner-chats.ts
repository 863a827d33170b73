import { Hono } from 'hono';
import { z } from 'zod';
import { cleanerLinkAnswer, cleanerMessengersAnswer, successAnswer } from '../../schema/answers.ts';
import { CLEANER_LINK_TTL_MS } from '../../schema/cleaning.ts';
import { maxStartLink } from '../../schema/max.ts';
import { MSG } from '../../schema/messages.ts';
import { telegramDeepLink } from '../../schema/telegram.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { docs } from '../lib/openapi.ts';
import { validate } from '../lib/validate.ts';
import { requireAdmin } from '../middleware/session.ts';
import { chatsOfCleaner, newCleanerCode, untieCleanerChats } from '../queries/cleaner-chats.ts';
import { readMaxBot } from '../queries/max-bot.ts';
import { readTelegramBot } from '../queries/telegram-bot.ts';
import { idParam } from './params.ts';

const doc = docs('Сегодня');

const channelParam = z.object({ channel: z.enum(['telegram', 'max'], { error: MSG.cleanerMessengerInvalid }) });

/**
 * A cleaner's morning list in Telegram or MAX (worker/notify/cleaning.ts): from their own
 * «Сегодня» they get a one-time link to the owner's bot (the guests' bot in Telegram, the bot of
 * the alerts in MAX) whose «Начать» ties the chat; the owner unties it in «Учётные записи». Never
 * the sign-in link: the code only ties a chat and is good once, for 30 minutes.
 */
export const cleanerChatRoutes = new Hono<AppEnv>()
  .get(
    '/today/messengers',
    doc('Куда уборщику приходит список уборок', {
      admin: true,
      answer: cleanerMessengersAnswer,
      errors: [409],
      description:
        'Только уборщику: в каком мессенджере владелец подключил бота (`available`) и куда уборщик уже получает ' +
        'список задач на день (`linked`).',
    }),
    requireAdmin,
    async (c) => {
      const user = c.get('user')!;
      if (user.role !== 'cleaner') return apiError(c, 409, MSG.cleanerListOnlyForCleaner);
      const [telegram, max, linked] = await Promise.all([
        readTelegramBot(c.env),
        readMaxBot(c.env),
        chatsOfCleaner(c.env, user.id),
      ]);
      return c.json({
        telegram: { available: !!telegram, linked: linked.includes('telegram') },
        max: { available: !!max, linked: linked.includes('max') },
      } satisfies z.infer<typeof cleanerMessengersAnswer>);
    },
  )
  .post(
    '/today/messengers/:channel',
    doc('Ссылка на бота для списка уборок', {
      admin: true,
      answer: cleanerLinkAnswer,
      errors: [400, 409],
      description:
        'Только уборщику: одноразовая ссылка на бота владельца (t.me или max.ru) на 30 минут. «Начать» по ней ' +
        'привязывает чат: каждое утро в 08:00 по Москве туда приходят задачи дня по домикам уборщика.',
    }),
    requireAdmin,
    validate('param', channelParam),
    async (c) => {
      const user = c.get('user')!;
      if (user.role !== 'cleaner') return apiError(c, 409, MSG.cleanerListOnlyForCleaner);
      const { channel } = c.req.valid('param');
      const bot = channel === 'telegram' ? await readTelegramBot(c.env) : await readMaxBot(c.env);
      if (!bot) return apiError(c, 409, channel === 'telegram' ? MSG.cleanerNoTelegramBot : MSG.cleanerNoMaxBot);
      const { code, expiresAt } = await newCleanerCode(c.env, user.id, channel, CLEANER_LINK_TTL_MS);
      const url = channel === 'telegram' ? telegramDeepLink(bot.username, code) : maxStartLink(bot.username, code);
      return c.json({ url, expiresAt });
    },
  )
  .delete(
    '/users/:id/messengers',
    doc('Отвязать мессенджеры уборщика', {
      admin: true,
      answer: successAnswer,
      errors: [404, 409],
      description: 'Утренний список уборок больше не приходит уборщику ни в Telegram, ни в MAX.',
    }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const result = await untieCleanerChats(c.env, c.req.valid('param').id);
      if (result === 'missing') return apiError(c, 404, MSG.userNotFound);
      if (result === 'notCleaner') return apiError(c, 409, MSG.notCleaner);
      return c.json({ success: true as const });
    },
  );
