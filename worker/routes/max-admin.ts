import { Hono, type Context } from 'hono';
import { MAX_CHECK_PAGES, MAX_CHECK_WAIT_S, maxTokenSchema, type MaxUpdate } from '../../schema/max.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { getMaxBot, getMaxStarts, MaxApiError, sendMaxMessage } from '../notify/max-api.ts';
import { forgetMaxBot, maxStatus, newStartPayload, readMaxBot, saveMaxBot, type MaxBot } from '../queries/max-bot.ts';
import { getSettings } from '../queries/settings.ts';
import { docs } from '../lib/openapi.ts';

const doc = docs('Оповещения MAX');

/** MAX's refusal or silence, as the owner should read it; anything else is a real fault. */
function maxFailure(c: Context<AppEnv>, err: unknown) {
  if (!(err instanceof MaxApiError)) throw err;
  console.error('MAX alerts:', err.message);
  return err.tokenRejected ? apiError(c, 400, MSG.maxTokenRejected) : apiError(c, 502, MSG.maxUnavailable);
}

/**
 * Reads the bot's unacknowledged «Начать» presses (long-polling a few seconds) and returns the
 * newest one that came through this site's start link, if any.
 */
async function findOwnerStart(c: Context<AppEnv>, bot: MaxBot): Promise<MaxUpdate | undefined> {
  let marker: number | undefined;
  let found: MaxUpdate | undefined;
  for (let page = 0; page < MAX_CHECK_PAGES; page++) {
    // Only the first read waits: the later ones just drain what is already there.
    const { updates, marker: next } = await getMaxStarts(c.env, bot.token, page === 0 ? MAX_CHECK_WAIT_S : 0, marker);
    for (const u of updates) if (u.update_type === 'bot_started' && u.payload === bot.payload && u.user) found = u;
    if (updates.length === 0 || next == null || found) break;
    marker = next;
  }
  return found;
}

/**
 * «Настройки» → «Уведомления в MAX» (admin only). The owner sets the bot's token; the panel
 * shows the bot's start link with a secret; the owner opens it and presses «Начать»; «Проверить
 * подключение» reads that press from MAX (long polling: no public address is needed, so it
 * works the same on Workers and on a home server) and from then on notifyOwner writes there.
 */
export const maxAdminRoutes = new Hono<AppEnv>()
  .get('/', doc('Бот MAX: подключён ли', { admin: true }), requireAdmin, async (c) =>
    c.json(maxStatus(await readMaxBot(c.env))),
  )
  .put(
    '/',
    doc('Подключить бота MAX по токену', { admin: true, errors: [502] }),
    requireAdmin,
    jsonBody,
    validate('json', maxTokenSchema),
    async (c) => {
      const { token } = c.req.valid('json');
      let me;
      try {
        me = await getMaxBot(c.env, token);
      } catch (err) {
        return maxFailure(c, err);
      }
      if (!me.username) return apiError(c, 400, MSG.maxBotNoUsername);
      const current = await readMaxBot(c.env);
      // The same token saved again keeps its connection; a new one starts over with a new link.
      const keep = current?.token === token && current.username === me.username;
      const bot: MaxBot = keep
        ? { ...current, name: me.name ?? me.first_name ?? me.username }
        : {
            token,
            name: me.name ?? me.first_name ?? me.username,
            username: me.username,
            payload: newStartPayload(),
            userId: null,
            chatId: null,
            connectedAt: null,
          };
      await saveMaxBot(c.env, bot);
      return c.json(maxStatus(bot));
    },
  )
  .delete('/', doc('Забыть бота MAX', { admin: true }), requireAdmin, async (c) => {
    await forgetMaxBot(c.env);
    return c.json(maxStatus(null));
  })
  .post('/check', doc('Найти «Начать» владельца в MAX', { admin: true, errors: [502] }), requireAdmin, async (c) => {
    const bot = await readMaxBot(c.env);
    if (!bot) return apiError(c, 409, MSG.maxNotConfigured);
    let start: MaxUpdate | undefined;
    try {
      start = await findOwnerStart(c, bot);
    } catch (err) {
      return maxFailure(c, err);
    }
    if (!start) return bot.userId !== null ? c.json(maxStatus(bot)) : apiError(c, 409, MSG.maxNotStarted);
    // The token may have changed while MAX was being asked: only the same bot is connected.
    const now = await readMaxBot(c.env);
    if (!now || now.token !== bot.token || now.payload !== bot.payload) return apiError(c, 409, MSG.maxNotConfigured);
    const connected: MaxBot = {
      ...now,
      userId: start.user!.user_id,
      chatId: start.chat_id ?? null,
      connectedAt: new Date().toISOString(),
    };
    await saveMaxBot(c.env, connected);
    return c.json(maxStatus(connected));
  })
  .post('/test', doc('Пробное сообщение в MAX', { admin: true, errors: [502] }), requireAdmin, async (c) => {
    const bot = await readMaxBot(c.env);
    if (!bot || bot.userId === null) return apiError(c, 409, MSG.maxNotConnected);
    const { siteName } = await getSettings(c.env);
    try {
      await sendMaxMessage(
        c.env,
        bot.token,
        bot.userId,
        `Проверка связи: сюда будут приходить уведомления сайта «${siteName}» о новых заявках и отзывах.`,
      );
    } catch (err) {
      return maxFailure(c, err);
    }
    return c.json({ sent: true });
  });
