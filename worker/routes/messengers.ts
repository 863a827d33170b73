import { Hono, type Context } from 'hono';
import { MSG } from '../../schema/messages.ts';
import { messengersAnswer, messengersBody, telegramUpdateSchema } from '../../schema/telegram.ts';
import type { AppEnv } from '../env.ts';
import { apiError } from '../lib/errors.ts';
import { docs } from '../lib/openapi.ts';
import { afterResponse } from '../lib/background.ts';
import { sha256Hex } from '../lib/password.ts';
import { validate } from '../lib/validate.ts';
import { limitBody } from '../middleware/body-limit.ts';
import { jsonBody } from '../middleware/json-body.ts';
import { requireAdmin } from '../middleware/session.ts';
import { connectTelegramBot, takeUpdate } from '../notify/guest-telegram.ts';
import { connectMaxBot, forgetMaxBotAndHook, takeMaxGuestUpdate } from '../notify/guest-max.ts';
import { maxGuestStatus, readMaxBot } from '../queries/max-bot.ts';
import { maxUpdateSchema } from '../../schema/max.ts';
import { deleteTelegramWebhook, TelegramApiError } from '../notify/telegram-api.ts';
import { messageOf } from '../notify/owner.ts';
import { forgetTelegramBot, readTelegramBot, telegramStatus } from '../queries/telegram-bot.ts';
import { z } from 'zod';
import { SMS_SENDING_PROVIDERS } from '../../schema/sms.ts';
import { connectSmsGateway, SmsSetupError } from '../notify/guest-sms.ts';
import { SmsApiError } from '../notify/sms-api.ts';
import { forgetSmsGateway, readSmsGateway, smsMonthMoney, smsStatus } from '../queries/sms.ts';

const doc = docs('Мессенджеры гостей');

/** Telegram's refusal or silence, as the owner should read it; anything else is a real fault. */
function telegramFailure(c: Context<AppEnv>, err: unknown) {
  if (!(err instanceof TelegramApiError)) throw err;
  console.error('Guests’ Telegram bot:', err.message);
  return err.tokenRejected ? apiError(c, 400, MSG.telegramTokenRejected) : apiError(c, 502, MSG.telegramUnavailable);
}

/** The gateway's refusal or silence while its key is checked, as the owner should read it. */
function smsFailure(c: Context<AppEnv>, err: unknown) {
  if (err instanceof SmsSetupError) return apiError(c, 400, err.message);
  if (!(err instanceof SmsApiError)) throw err;
  console.error('SMS gateway:', err.message);
  return err.failure === 'unavailable' ? apiError(c, 502, err.forOwner) : apiError(c, 400, err.forOwner);
}

const answerOf = async (c: Context<AppEnv>) => {
  const [bot, maxBot, gateway, money] = await Promise.all([
    readTelegramBot(c.env),
    readMaxBot(c.env),
    readSmsGateway(c.env),
    smsMonthMoney(c.env),
  ]);
  return c.json({ telegram: telegramStatus(bot), max: maxGuestStatus(maxBot), sms: smsStatus(gateway, money) });
};

/**
 * «Настройки» → «Мессенджеры гостей» (the owner's only, worker/middleware/roles.ts): the bot
 * through which guests get their booking's messages, and the SMS gateway for guests who tied no
 * messenger. The token and the key are checked with their service before they are kept and never
 * come back, only their last 4 characters.
 */
export const messengerRoutes = new Hono<AppEnv>()
  .get('/', doc('Боты для сообщений гостям', { admin: true, answer: messengersAnswer }), requireAdmin, answerOf)
  .put(
    '/',
    doc('Подключить или забыть бота Telegram, бота MAX и SMS для гостей', {
      admin: true,
      answer: messengersAnswer,
      errors: [502],
    }),
    requireAdmin,
    jsonBody,
    validate('json', messengersBody),
    async (c) => {
      const { telegram, max, sms } = c.req.valid('json');
      // MAX first: its bot is the owner's alerts' too, and a refusal there keeps the rest as it was.
      if (max === null) await forgetMaxBotAndHook(c.env);
      else if (max) {
        const done = await connectMaxBot(c.env, max.token);
        if ('error' in done) return apiError(c, done.status, done.error);
      }
      if (sms === null) await forgetSmsGateway(c.env);
      else if (sms) {
        if (!SMS_SENDING_PROVIDERS.includes(sms.provider)) return apiError(c, 400, MSG.smsProviderNotYet);
        try {
          await connectSmsGateway(c.env, sms);
        } catch (err) {
          return smsFailure(c, err);
        }
      }
      if (telegram === null) {
        const bot = await readTelegramBot(c.env);
        await forgetTelegramBot(c.env);
        // Telegram would go on posting to a path that is gone: the webhook is taken down, if it can be.
        if (bot?.mode === 'webhook')
          await deleteTelegramWebhook(c.env, bot.token).catch((err) =>
            console.error('The guests’ bot’s webhook could not be removed:', messageOf(err)),
          );
      } else if (telegram) {
        try {
          await connectTelegramBot(c.env, telegram.token);
        } catch (err) {
          return telegramFailure(c, err);
        }
      }
      return answerOf(c);
    },
  );

/** Whether two secrets are the same, in a time that does not tell how much of one was guessed. */
async function sameSecret(given: string, kept: string): Promise<boolean> {
  const [a, b] = await Promise.all([sha256Hex(given), sha256Hex(kept)]);
  return a === b;
}

/**
 * Telegram's webhook of the guests' bot: the path's secret and the X-Telegram-Bot-Api-Secret-Token
 * header are both the ones this site gave Telegram with setWebhook, else nothing is read or
 * changed (404 for a path that is not ours, 401 for a missing or wrong header). Each update is
 * taken once, by its update_id, before the 200 (worker/notify/guest-telegram.ts).
 */
export const telegramHookRoutes = new Hono<AppEnv>().post(
  '/telegram/:secret',
  doc('Обновление бота Telegram для гостей (вебхук)', {
    answer: z.object({ ok: z.literal(true) }),
    body: { media: 'application/json', schema: telegramUpdateSchema },
    errors: [401, 404],
  }),
  limitBody(256 * 1024, MSG.requestTooLarge, MSG.badJson),
  async (c) => {
    const bot = await readTelegramBot(c.env);
    if (!bot || bot.mode !== 'webhook' || !(await sameSecret(c.req.param('secret'), bot.hookSecret)))
      return apiError(c, 404, MSG.notFound);
    if (!(await sameSecret(c.req.header('x-telegram-bot-api-secret-token') ?? '', bot.headerSecret)))
      return apiError(c, 401, MSG.telegramHookSecret);
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return apiError(c, 400, MSG.badJson);
    }
    const update = telegramUpdateSchema.safeParse(body);
    if (!update.success) return apiError(c, 400, MSG.badInput);
    await takeUpdate(c.env, bot, update.data, (label, task) => afterResponse(c, label, task));
    return c.json({ ok: true as const });
  },
);

/**
 * MAX's webhook of the owner's MAX bot (the one of the alerts, serving guests too): the path's
 * secret and the X-Max-Bot-Api-Secret header are both the ones this site gave MAX with POST
 * /subscriptions, else nothing is read or changed (404 for a path that is not ours, 401 for a
 * missing or wrong header). Each update is taken once, by its key, before the 200
 * (worker/notify/guest-max.ts).
 */
export const maxHookRoutes = new Hono<AppEnv>().post(
  '/max/:secret',
  doc('Обновление бота MAX (вебхук)', {
    answer: z.object({ ok: z.literal(true) }),
    body: { media: 'application/json', schema: maxUpdateSchema },
    errors: [401, 404],
  }),
  limitBody(256 * 1024, MSG.requestTooLarge, MSG.badJson),
  async (c) => {
    const bot = await readMaxBot(c.env);
    if (!bot || bot.mode !== 'webhook' || !bot.hookSecret || !(await sameSecret(c.req.param('secret'), bot.hookSecret)))
      return apiError(c, 404, MSG.notFound);
    if (!bot.headerSecret || !(await sameSecret(c.req.header('x-max-bot-api-secret') ?? '', bot.headerSecret)))
      return apiError(c, 401, MSG.maxHookSecret);
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return apiError(c, 400, MSG.badJson);
    }
    const update = maxUpdateSchema.safeParse(body);
    if (!update.success) return apiError(c, 400, MSG.badInput);
    await takeMaxGuestUpdate(c.env, bot, update.data, (label, task) => afterResponse(c, label, task));
    return c.json({ ok: true as const });
  },
);
