import { Hono, type Context } from 'hono';
import { MAX_TEXT_LIMIT } from '../../schema/max.ts';
import { MSG } from '../../schema/messages.ts';
import {
  readAnswerSchema,
  replySchema,
  threadAnswerSchema,
  threadsAnswerSchema,
  threadsQuerySchema,
  messageViewSchema,
} from '../../schema/threads.ts';
import type { AppEnv } from '../env.ts';
import { markAvitoThreadRead, queueAvitoAnswer } from '../channels/avito-chats.ts';
import { afterResponse } from '../lib/background.ts';
import { apiError } from '../lib/errors.ts';
import { docs } from '../lib/openapi.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { tryMaxNow } from '../notify/guest-max.ts';
import { tryTelegramNow } from '../notify/guest-telegram.ts';
import { GUEST_LEASE_MS, messageOrigin } from '../notify/guest.ts';
import { readMaxBot } from '../queries/max-bot.ts';
import { templatesForThread } from '../queries/reply-templates.ts';
import { randomHex } from '../queries/guest-bots.ts';
import { readTelegramBot } from '../queries/telegram-bot.ts';
import {
  getThread,
  listThreads,
  markThreadRead,
  messageOfOutbox,
  queueReply,
  threadMessages,
} from '../queries/threads.ts';
import { idParam } from './params.ts';

const doc = docs('Сообщения');

/** A guests' bot's own parts of an answer: how it is read, tried at once, and named. */
type Messenger<B> = {
  channel: 'telegram' | 'max';
  read: (env: AppEnv['Bindings']) => Promise<B | null>;
  tryNow: (env: AppEnv['Bindings'], bot: B, row: Parameters<typeof tryTelegramNow>[2]) => Promise<boolean>;
  notConnected: string;
  chatGone: string;
  /** How the logs name the guest's side («Telegram chat», «MAX dialog») and the bot. */
  chat: string;
  name: string;
};
const TELEGRAM = {
  channel: 'telegram',
  read: readTelegramBot,
  tryNow: tryTelegramNow,
  notConnected: MSG.telegramNotConnected,
  chatGone: MSG.replyChatGone,
  chat: 'Telegram chat',
  name: 'Telegram',
} as const satisfies Messenger<Awaited<ReturnType<typeof readTelegramBot>> & {}>;
const MAX = {
  channel: 'max',
  read: readMaxBot,
  tryNow: tryMaxNow,
  notConnected: MSG.maxNotConfigured,
  chatGone: MSG.maxReplyChatGone,
  chat: 'MAX dialog',
  name: 'MAX',
} as const satisfies Messenger<Awaited<ReturnType<typeof readMaxBot>> & {}>;

/**
 * The owner's answer in a booking's Telegram chat or MAX dialog: through the outbox like every
 * message to a guest, tried at once after the answer, and the thread's copy of it answered.
 */
async function replyThroughBot<B>(c: Context<AppEnv>, m: Messenger<B>, bookingId: number, text: string, key?: string) {
  const bot = await m.read(c.env);
  if (!bot) return apiError(c, 409, m.notConnected);
  const kept = await queueReply(
    c.env,
    {
      bookingId,
      subject: REPLY_SUBJECT,
      text,
      event: key ?? randomHex(12),
      ...(m.channel === 'max' ? { channel: 'max' as const } : {}),
    },
    GUEST_LEASE_MS,
  );
  if (!kept) return apiError(c, 409, m.chatGone);
  if (kept.fresh) {
    console.log(`Booking ${bookingId}: the owner’s answer queued for the guest’s ${m.chat}`);
    afterResponse(
      c,
      `The owner’s answer in ${m.name}`,
      m.tryNow(c.env, bot, {
        id: kept.id,
        attempts: 0,
        createdAt: kept.createdAt,
        bookingId,
        kind: 'reply',
        recipient: kept.recipient,
        text,
      }),
    );
  }
  const message = await messageOfOutbox(c.env, kept.id);
  if (!message) throw new Error(`The thread's copy of outbox row ${kept.id} is missing`);
  return c.json(message, 202);
}

/** The outbox's subject of the owner's answer (the chat gets only the text). */
const REPLY_SUBJECT = 'Ответ владельца';

/**
 * «Сообщения» (the owner and a manager alike, worker/middleware/roles.ts): every conversation with
 * a guest, what they wrote to the guests' bot and what went to them, and the owner's answer, which
 * goes through the outbox like every message to a guest (kept until sent, tried again on failure,
 * sent once).
 */
export const threadRoutes = new Hono<AppEnv>()
  .get(
    '/threads',
    doc('Переписки с гостями', {
      admin: true,
      answer: threadsAnswerSchema,
      description:
        'Новые сверху (по последнему сообщению). `unread=1` — только с непрочитанными сообщениями гостя; ' +
        '`channel` — один канал; `before` — `id` последней уже показанной переписки (следующая страница); ' +
        '`limit` — до 100, по умолчанию 50. `waitingSince` — с какого времени ждёт ответа самое раннее ' +
        'сообщение гостя после последнего ответа владельца (автоматические письма ответом не считаются).',
    }),
    requireAdmin,
    validate('query', threadsQuerySchema),
    async (c) => c.json(await listThreads(c.env, c.req.valid('query'))),
  )
  .get(
    '/threads/:id',
    doc('Переписка с гостем', {
      admin: true,
      answer: threadAnswerSchema,
      errors: [404],
      description:
        'Сообщения по порядку. `status`: `received` — от гостя; `queued` — ждёт отправки (с `error`, если ' +
        'прошлая попытка не удалась и будет повторена); `sent`; `failed` — отправить не удалось, `error` — ' +
        'причина. `auto` — автоматическое сообщение (подтверждение, напоминание), а не ответ владельца. ' +
        'Чтение не отмечает сообщения прочитанными: для этого `POST …/read`. `templates` — шаблоны ответов ' +
        'владельца, заполненные для этого бронирования (в чате Авито — только те, где нет ссылок).',
    }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const id = c.req.valid('param').id;
      const thread = await getThread(c.env, id);
      if (!thread) return apiError(c, 404, MSG.threadNotFound);
      const [messages, templates] = await Promise.all([
        threadMessages(c.env, id),
        templatesForThread(c.env, thread, messageOrigin(c.env, new URL(c.req.url).origin)),
      ]);
      return c.json({ thread, messages, templates });
    },
  )
  .post(
    '/threads/:id/messages',
    doc('Ответить гостю', {
      admin: true,
      status: 202,
      answer: messageViewSchema,
      errors: [404, 409],
      description:
        'Ответ ставится в очередь отправки (202, сообщение в состоянии `queued`) и уходит в чат гостя ' +
        'один раз: сразу после ответа сервера, а если мессенджер не принял — повторяется по расписанию. ' +
        '`key` (необязательно) — имя этого ответа: повтор запроса с тем же `key` ничего не добавляет. ' +
        'В чат Авито ответ уходит через API сообщений Авито (без ссылок и контактов — правила Авито). ' +
        '409 — бот не подключён (или Авито), гость отписался («стоп») или в этот канал ответить нельзя. ' +
        'В переписке MAX ответ длиннее 4000 символов не принимается (400): MAX столько не примет.',
    }),
    requireAdmin,
    validate('param', idParam),
    jsonBody,
    validate('json', replySchema),
    async (c) => {
      const id = c.req.valid('param').id;
      const { text, key } = c.req.valid('json');
      const thread = await getThread(c.env, id);
      if (!thread) return apiError(c, 404, MSG.threadNotFound);
      if (thread.channel === 'avito') {
        // An Avito chat: the answer goes to the chat through the outbox (worker/channels/avito-chats.ts).
        const queued = await queueAvitoAnswer(c.env, id, text, key ?? randomHex(12), (label, task) =>
          afterResponse(c, label, task),
        );
        if (queued === 'not connected') return apiError(c, 409, MSG.avitoNotConnected);
        if (!queued) return apiError(c, 409, MSG.replyChannelUnsupported);
        const message = await messageOfOutbox(c.env, queued.id);
        if (!message) throw new Error(`The thread's copy of outbox row ${queued.id} is missing`);
        return c.json(message, 202);
      }
      if (thread.bookingId !== undefined && thread.channel === 'max') {
        // MAX takes less in one message than Telegram: a longer answer is refused whole, never cut.
        if (text.length > MAX_TEXT_LIMIT) return apiError(c, 400, MSG.maxReplyTooLong);
        return replyThroughBot(c, MAX, thread.bookingId, text, key);
      }
      if (thread.channel !== 'telegram' || thread.bookingId === undefined)
        return apiError(c, 409, MSG.replyChannelUnsupported);
      return replyThroughBot(c, TELEGRAM, thread.bookingId, text, key);
    },
  )
  .post(
    '/threads/:id/read',
    doc('Отметить переписку прочитанной', {
      admin: true,
      answer: readAnswerSchema,
      errors: [404],
      description:
        'Все сообщения гостя, что есть в переписке сейчас, считаются прочитанными. Чат Авито отмечается ' +
        'прочитанным и на Авито (после ответа сервера: панель Авито не ждёт).',
    }),
    requireAdmin,
    validate('param', idParam),
    async (c) => {
      const id = c.req.valid('param').id;
      if (!(await markThreadRead(c.env, id))) return apiError(c, 404, MSG.threadNotFound);
      afterResponse(c, 'Marking an Avito chat read', markAvitoThreadRead(c.env, id));
      return c.json({ unread: 0 as const });
    },
  );
