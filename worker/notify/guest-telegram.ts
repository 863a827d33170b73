// The guests' Telegram bot (docs/api.md «Messengers», docs/operations.md «Telegram for guests»):
// connecting the owner's bot, taking its updates (by the webhook, or read by the schedule where
// the server has no public address), and sending a booking's messages to the chat the guest tied.
import { CLEANING_TEXTS } from '../../schema/cleaning.ts';
import { sql } from 'drizzle-orm';
import { todayInMoscow } from '../../schema/dates.ts';
import type { GuestMessageKind } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import { outbox, type Booking, type OutboxRow } from '../../schema/tables.ts';
import {
  isStopWord,
  TELEGRAM_REPLIES,
  TELEGRAM_TEXT_LIMIT,
  telegramGuestText,
  type TelegramUpdate,
} from '../../schema/telegram.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { getDb, insertWhen } from '../lib/db.ts';
import { markFailed, markSent } from '../queries/outbox.ts';
import { getSettings } from '../queries/settings.ts';
import {
  chatOf,
  dropChat,
  nextUpdateOffset,
  noteTelegramError,
  readTelegramBot,
  saveTelegramBot,
  takeTelegramUpdate,
  type TelegramBot,
} from '../queries/telegram-bot.ts';
import { randomHex } from '../queries/guest-bots.ts';
import { autoAnswerGuest, ownerAlertOfGuestWords } from './guest-wrote.ts';
import { GUEST_LEASE_MS, messageOrigin, whyStayRefuses, type MessageStay } from './guest.ts';
import { markTryFailed, messageOf, triedTooLong } from './owner.ts';
import {
  deleteTelegramWebhook,
  getTelegramMe,
  getTelegramUpdates,
  sendTelegramMessage,
  setTelegramWebhook,
  TelegramApiError,
} from './telegram-api.ts';

/**
 * The public address Telegram posts updates to, or undefined where the server has none (polling).
 * Telegram posts only to HTTPS: a self-hosted server's default SITE_URL (http://HOST:PORT, no
 * certificate in front) polls instead.
 */
export const webhookUrl = (env: Pick<Bindings, 'SITE_URL'>, secret: string) => {
  const site = env.SITE_URL?.trim().replace(/\/+$/, '');
  return site?.startsWith('https://') ? `${site}/api/hooks/telegram/${secret}` : undefined;
};

/**
 * Checks the token with Telegram (getMe) and makes the bot the guests' one: with an https SITE_URL
 * its webhook is set to this site, with a secret path and a secret header of its own; without it the
 * webhook is removed and the schedule reads the updates (Telegram allows one way, never both).
 * The same token again keeps its secrets. Throws TelegramApiError when Telegram refuses or is silent.
 */
export async function connectTelegramBot(env: Bindings, token: string): Promise<TelegramBot> {
  const me = await getTelegramMe(env, token);
  if (!me.username) throw new TelegramApiError(401, 'Telegram getMe answered a bot without a username');
  const current = await readTelegramBot(env);
  const same = current?.token === token;
  const hookSecret = same ? current.hookSecret : randomHex(24);
  const headerSecret = same ? current.headerSecret : randomHex(32);
  const url = webhookUrl(env, hookSecret);
  if (url) await setTelegramWebhook(env, token, url, headerSecret);
  else await deleteTelegramWebhook(env, token);
  const bot: TelegramBot = {
    token,
    id: me.id,
    username: me.username,
    name: me.first_name,
    hookSecret,
    headerSecret,
    mode: url ? 'webhook' : 'polling',
    error: null,
  };
  await saveTelegramBot(env, bot);
  // A bot replaced by another stops sending here: its webhook would post to a path that is gone.
  if (current && !same)
    await deleteTelegramWebhook(env, current.token).catch((err) =>
      console.error('The previous Telegram bot’s webhook could not be removed:', messageOf(err)),
    );
  return bot;
}

/** What an update asks of us: a /start with a code, the guest's «стоп», or anything else. */
function actionOf(update: TelegramUpdate): { start: string } | { bareStart: true } | { stop: true } | null {
  const text = update.message?.text?.trim();
  if (!text) return null;
  const start = /^\/start(?:@\w+)?(?:\s+(\S+))?$/.exec(text);
  if (start) return start[1] ? { start: start[1] } : { bareStart: true };
  if (isStopWord(text)) return { stop: true };
  return null;
}

/**
 * Takes one update of the guests' bot: recorded once by its update_id, in the same batch as what
 * it does (a chat tied by a valid code, or untied by «стоп»), then answered in the chat. A second
 * delivery of the same update does nothing and says nothing. The answer is tried once: a guest
 * who got none taps the link again.
 */
export async function takeUpdate(
  env: Bindings,
  bot: TelegramBot,
  update: TelegramUpdate,
  /** Where the owner's alert runs: after the webhook's answer there, in turn when polling. */
  later: (label: string, task: Promise<unknown>) => unknown = (_, task) => task,
): Promise<void> {
  const chat = update.message?.chat.id;
  const action = actionOf(update);
  const chatId = chat === undefined ? undefined : String(chat);
  const text = update.message?.text?.trim();
  const alert = chatId !== undefined && !action && text ? ownerAlertOfGuestWords(env, 'Telegram', text) : null;
  const taken = await takeTelegramUpdate(
    env,
    bot.id,
    update.update_id,
    chatId === undefined
      ? null
      : !action
        ? text
          ? {
              said: {
                chatId,
                messageId: String(update.message?.message_id ?? `u${update.update_id}`),
                text: text.slice(0, TELEGRAM_TEXT_LIMIT),
              },
            }
          : null
        : 'bareStart' in action
          ? null
          : 'start' in action
            ? { start: action.start, chatId }
            : { stop: chatId },
    alert?.alertOf,
  );
  if (!taken.fresh || chatId === undefined) return;
  if (taken.stored) console.log('A guest wrote to the guests’ Telegram bot: kept in their booking’s thread');
  if (taken.storedFor !== undefined && text) {
    await later('The owner’s alert of a guest’s message', alert?.sendNow(taken.alerted) ?? Promise.resolve());
    await autoAnswerGuest(env, 'telegram', taken.storedFor, (row) => tryTelegramNow(env, bot, row));
  }
  // What the guest wrote reached the owner («Сообщения»): no automatic answer to it. A chat tied
  // to no booking is told what the bot is for.
  const reply = !action
    ? text && !taken.stored
      ? TELEGRAM_REPLIES.other
      : null
    : 'bareStart' in action
      ? TELEGRAM_REPLIES.bareStart
      : 'stop' in action
        ? TELEGRAM_REPLIES.stopped
        : taken.linked !== null
          ? TELEGRAM_REPLIES.linked
          : taken.cleaner
            ? CLEANING_TEXTS.linked
            : TELEGRAM_REPLIES.stale;
  if (taken.linked !== null) console.log(`Booking ${taken.linked}: the guest tied a Telegram chat`);
  if (taken.cleaner) console.log(`Cleaner ${taken.cleaner} tied a Telegram chat for the morning list`);
  if (taken.unlinked > 0) console.log(`A guest untied their Telegram chat from ${taken.unlinked} booking(s)`);
  if (!reply) return;
  await sendTelegramMessage(env, bot.token, chatId, reply).catch((err) =>
    console.error('The guests’ bot could not answer in Telegram:', messageOf(err)),
  );
}

/**
 * Where the server has no public address: reads what the guests' bot got since the last update
 * taken, waiting up to `waitS` seconds for one (the self-hosted server's long polling; the
 * schedule's read waits for none), and takes each. The offset is the update after the newest one
 * recorded, so Telegram drops an update only once the batch that stores it has been committed: a
 * stop in between reads it again, and its record makes the second take change nothing.
 * Telegram's refusal is kept on the bot for the panel. Nothing in webhook mode.
 */
export async function pollTelegram(env: Bindings, waitS = 0, signal?: AbortSignal): Promise<number> {
  const bot = await readTelegramBot(env);
  if (!bot || bot.mode !== 'polling') return 0;
  let updates: TelegramUpdate[];
  try {
    updates = await getTelegramUpdates(env, bot.token, await nextUpdateOffset(env, bot.id), waitS, signal);
  } catch (err) {
    if (signal?.aborted) return 0;
    console.error('Reading the guests’ Telegram bot failed:', messageOf(err));
    if (err instanceof TelegramApiError && err.tokenRejected)
      await noteTelegramError(env, bot.token, MSG.telegramTokenRejected);
    else if (err instanceof TelegramApiError && err.status === 409)
      // Another server (or an old webhook) takes the updates: the owner connects the bot again here.
      await noteTelegramError(env, bot.token, 'Обновления бота забирает другой сервер: подключите бота заново');
    return 0;
  }
  if (bot.error) await noteTelegramError(env, bot.token, null);
  for (const update of updates) await takeUpdate(env, bot, update);
  return updates.length;
}

/**
 * Sends one due Telegram message of a guest that this sender has claimed (the drain): given up
 * when the guests' bot is gone, the guest untied the chat (or tied another), or the message must
 * not go any more for the reasons an e-mail would not (its booking cancelled, the arrival passed).
 */
export async function sendGuestTelegram(
  env: Bindings,
  row: OutboxRow,
  stay: MessageStay | undefined,
): Promise<'sent' | 'failed' | 'given up'> {
  const giveUp = async (why: string) => {
    console.log(`The ${row.kind} Telegram message of booking ${row.bookingId} given up: ${why}`);
    await markFailed(env, row.id, why, { giveUp: true });
    return 'given up' as const;
  };
  const [bot, chat] = await Promise.all([readTelegramBot(env), chatOf(env, row.bookingId!)]);
  if (!bot) return giveUp(MSG.telegramNotConnected);
  if (!row.recipient || chat !== row.recipient) return giveUp('Гость отписался от сообщений в Telegram');
  const why = whyStayRefuses(row, stay, todayInMoscow(now()));
  if (why) return giveUp(why);
  return (await deliver(env, bot, { ...row, recipient: row.recipient })) ? 'sent' : 'failed';
}

type HeldTelegram = Pick<OutboxRow, 'id' | 'attempts' | 'createdAt' | 'bookingId' | 'kind' | 'text'> & {
  recipient: string;
};

/**
 * One try of a Telegram message this sender holds: noted as sent, or as failed with the next try
 * after the backoff; a chat whose guest blocked the bot is untied and the message given up.
 */
async function deliver(env: Bindings, bot: TelegramBot, row: HeldTelegram): Promise<boolean> {
  try {
    await sendTelegramMessage(env, bot.token, row.recipient, row.text);
    await markSent(env, row.id);
    return true;
  } catch (err) {
    if (err instanceof TelegramApiError && err.chatGone) {
      await dropChat(env, row.bookingId!, row.recipient);
      console.log(`The ${row.kind} Telegram message of booking ${row.bookingId} given up: the guest blocked the bot`);
      await markFailed(env, row.id, 'Гость заблокировал бота в Telegram', { giveUp: true });
      return false;
    }
    const tooOld = triedTooLong(row);
    console.error(
      `The ${row.kind} Telegram message of booking ${row.bookingId} failed (try ${row.attempts + 1})${tooOld ? ', given up after 3 days' : ', kept for the schedule'}:`,
      messageOf(err),
    );
    await markTryFailed(env, row, err, tooOld);
    return false;
  }
}

/** The first try of a message a transition or the owner's «Подтвердить» has just kept; never throws. */
export const tryTelegramNow = (env: Bindings, bot: TelegramBot, row: HeldTelegram): Promise<boolean> =>
  deliver(env, bot, row).catch((err) => {
    console.error(`The ${row.kind} Telegram message of booking ${row.bookingId} could not be tried:`, messageOf(err));
    return false;
  });

/**
 * Keeps a booking's message for its guest's Telegram chat, if the owner connected a bot and the
 * guest tied a chat, and tries it once at once (the owner's «Подтвердить»; the schedule's
 * reminders and review requests are kept by queueTelegramStayMessages and sent by the drain).
 * Once per booking, kind and event, like its e-mail. Never throws.
 */
export async function keepGuestTelegram(
  env: Bindings,
  bookingId: number,
  kind: GuestMessageKind,
  stay: { cabinName: string; checkIn: string; checkOut: string; guestToken: string },
  origin: string,
): Promise<void> {
  try {
    const bot = await readTelegramBot(env);
    if (!bot) return;
    const words = telegramGuestText(kind, stay, origin);
    const at = now();
    const [row] = await insertWhen(
      getDb(env),
      outbox,
      {
        channel: 'telegram',
        ...words,
        attempts: 0,
        nextAttemptAt: at,
        leaseUntil: at + GUEST_LEASE_MS,
        createdAt: at,
        bookingId,
        kind,
        recipient: sql`guest_chats.chat_id`,
        event: '',
      },
      sql`guest_chats.booking_id = ${bookingId}`,
      sql`guest_chats`,
    )
      .onConflictDoNothing()
      .returning({ id: outbox.id, recipient: outbox.recipient });
    if (!row?.recipient) return;
    await tryTelegramNow(env, bot, {
      id: row.id,
      attempts: 0,
      createdAt: at,
      bookingId,
      kind,
      recipient: row.recipient,
      text: words.text,
    });
  } catch (err) {
    console.error(`The ${kind} Telegram message of booking ${bookingId} could not be kept:`, messageOf(err));
  }
}

/**
 * The owner's «Подтвердить» in «Заявки»: the confirmation for the guest's Telegram chat too, under
 * the same switch as its e-mail («Настройки» → «Письма гостям»). `origin` is the request's address,
 * used when SITE_URL is not set.
 */
export async function telegramConfirmation(
  env: Bindings,
  booking: Pick<Booking, 'id' | 'checkIn' | 'checkOut' | 'guestToken'>,
  cabinName: string,
  origin?: string,
): Promise<void> {
  const site = messageOrigin(env, origin);
  if (!booking.guestToken || !site) return;
  const { messages } = await getSettings(env);
  if (!messages.confirmation.enabled) return;
  await keepGuestTelegram(
    env,
    booking.id,
    'confirmation',
    { ...booking, guestToken: booking.guestToken, cabinName },
    site,
  );
}
