import { Hono, type Context } from 'hono';
import { MAX_CHECK_PAGES, MAX_CHECK_WAIT_S, maxTokenSchema } from '../../schema/max.ts';
import { MSG } from '../../schema/messages.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { validate } from '../lib/validate.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { connectMaxBot, forgetMaxBotAndHook, pollMax } from '../notify/guest-max.ts';
import { MaxApiError, sendMaxMessage } from '../notify/max-api.ts';
import { maxStatus, readMaxBot } from '../queries/max-bot.ts';
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
    doc('Подключить бота MAX по токену', {
      admin: true,
      errors: [502],
      description:
        'Где SITE_URL — https, MAX подписывается на вебхук сайта (обновления бота, в том числе от гостей); иначе их читает расписание. 400 — MAX не принял токен или адрес сайта.',
    }),
    requireAdmin,
    jsonBody,
    validate('json', maxTokenSchema),
    async (c) => {
      const done = await connectMaxBot(c.env, c.req.valid('json').token);
      if ('error' in done) return apiError(c, done.status, done.error);
      return c.json(maxStatus(done.bot));
    },
  )
  .delete('/', doc('Забыть бота MAX', { admin: true }), requireAdmin, async (c) => {
    await forgetMaxBotAndHook(c.env);
    return c.json(maxStatus(null));
  })
  .post('/check', doc('Найти «Начать» владельца в MAX', { admin: true, errors: [502] }), requireAdmin, async (c) => {
    const bot = await readMaxBot(c.env);
    if (!bot) return apiError(c, 409, MSG.maxNotConfigured);
    // By polling, the owner's «Начать» is read here with whatever guests did meanwhile (each taken
    // as the schedule would); by the webhook, MAX has posted it already.
    if (bot.mode === 'polling')
      try {
        for (let page = 0; page < MAX_CHECK_PAGES; page++) {
          // Only the first read waits: the later ones just drain what is already there.
          if ((await pollMax(c.env, page === 0 ? MAX_CHECK_WAIT_S : 0)) === 0) break;
          if ((await readMaxBot(c.env))?.userId != null) break;
        }
      } catch (err) {
        return maxFailure(c, err);
      }
    const now = await readMaxBot(c.env);
    if (!now || now.token !== bot.token) return apiError(c, 409, MSG.maxNotConfigured);
    return now.userId !== null ? c.json(maxStatus(now)) : apiError(c, 409, MSG.maxNotStarted);
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
