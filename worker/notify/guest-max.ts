// Guests' messages through the owner's MAX bot, the one of the owner's alerts (docs/api.md
// «Messengers», docs/operations.md «MAX for guests»): how its updates come (the webhook, or read by
// the schedule where the server has no public address), what each does, and sending a booking's
// messages to the dialog the guest tied.
import { CLEANING_TEXTS } from '../../schema/cleaning.ts';
import { sql } from 'drizzle-orm';
import { todayInMoscow } from '../../schema/dates.ts';
import type { GuestMessageKind } from '../../schema/guest-page.ts';
import { MAX_REPLIES, MAX_TEXT_LIMIT, type MaxUpdate } from '../../schema/max.ts';
import { MSG } from '../../schema/messages.ts';
import { outbox, type Booking, type OutboxRow } from '../../schema/tables.ts';
import { isStopWord, telegramGuestText } from '../../schema/telegram.ts';
import type { Bindings } from '../env.ts';
import { now } from '../lib/clock.ts';
import { getDb, insertWhen } from '../lib/db.ts';
import {
  dropMaxChat,
  forgetMaxBot,
  maxUserOf,
  newStartPayload,
  readMaxBot,
  readMaxMarker,
  saveMaxBot,
  saveMaxMarker,
  takeMaxUpdate,
  type MaxBot,
} from '../queries/max-bot.ts';
import { markFailed, markSent, notePartSent, partsSentOf } from '../queries/outbox.ts';
import { getSettings } from '../queries/settings.ts';
import { randomHex } from '../queries/guest-bots.ts';
import { autoAnswerGuest, ownerAlertOfGuestWords } from './guest-wrote.ts';
import { GUEST_LEASE_MS, messageOrigin, whyStayRefuses, type MessageStay } from './guest.ts';
import {
  getMaxBot,
  getMaxUpdates,
  MaxApiError,
  sendMaxGuestText,
  sendMaxMessage,
  subscribeMax,
  unsubscribeMax,
} from './max-api.ts';
import { markTryFailed, messageOf, triedTooLong } from './owner.ts';

/**
 * The public address MAX posts the bot's updates to, or undefined where the server has none
 * (polling). MAX posts only to HTTPS with a trusted certificate: a self-hosted server's default
 * SITE_URL (http://HOST:PORT) polls instead.
 */
export const maxWebhookUrl = (env: Pick<Bindings, 'SITE_URL'>, secret: string) => {
  const site = env.SITE_URL?.trim().replace(/\/+$/, '');
  return site?.startsWith('https://') ? `${site}/api/hooks/max/${secret}` : undefined;
};

/**
 * How the bot `next` (about to be saved by «Настройки» → «Уведомления в MAX») gets its updates:
 * with an https SITE_URL MAX is subscribed to this site's webhook with secrets of its own, else
 * the subscription is taken down and the schedule reads GET /updates (MAX allows one way, never
 * both). The same token again keeps its secrets; a replaced bot's subscription is taken down,
 * if it can be. Throws MaxApiError when MAX refuses the subscription.
 */
export async function withMaxUpdates(env: Bindings, next: MaxBot, current: MaxBot | null): Promise<MaxBot> {
  const same = current?.token === next.token;
  const hookSecret = (same && current.hookSecret) || randomHex(24);
  const headerSecret = (same && current.headerSecret) || randomHex(32);
  const url = maxWebhookUrl(env, hookSecret);
  if (url) await subscribeMax(env, next.token, url, headerSecret);
  // The address MAX posted to before is no longer this site's: taken down (another token's too).
  if (current?.mode === 'webhook' && current.hookUrl && (!same || current.hookUrl !== url))
    await dropSubscription(env, current);
  return { ...next, mode: url ? 'webhook' : 'polling', hookSecret, headerSecret, hookUrl: url ?? null };
}

/**
 * «Настройки» → «Уведомления в MAX» (and `PUT /admin/messengers` `{ max }`): the token checked with
 * MAX (GET /me), its updates' way set up (withMaxUpdates), and the bot kept. The same token again
 * keeps the owner's connection; a new one starts over with a new start link. MAX's refusal or
 * silence comes back in words for the owner, nothing kept.
 */
export async function connectMaxBot(
  env: Bindings,
  token: string,
): Promise<{ bot: MaxBot } | { status: 400 | 502; error: string }> {
  const refused = (err: unknown, what: string) => {
    if (!(err instanceof MaxApiError)) throw err;
    console.error(`MAX ${what}:`, err.message);
    return err.tokenRejected
      ? { status: 400 as const, error: MSG.maxTokenRejected }
      : { status: 502 as const, error: MSG.maxUnavailable };
  };
  let me;
  try {
    me = await getMaxBot(env, token);
  } catch (err) {
    return refused(err, 'alerts');
  }
  if (!me.username) return { status: 400, error: MSG.maxBotNoUsername };
  const current = await readMaxBot(env);
  const name = me.name ?? me.first_name ?? me.username;
  const keep = current?.token === token && current.username === me.username;
  const named: MaxBot = keep
    ? { ...current, name }
    : {
        token,
        name,
        username: me.username,
        payload: newStartPayload(),
        userId: null,
        chatId: null,
        connectedAt: null,
        mode: 'polling',
        hookSecret: null,
        headerSecret: null,
        hookUrl: null,
      };
  let bot: MaxBot;
  try {
    bot = await withMaxUpdates(env, named, current);
  } catch (err) {
    // MAX posts only to https with a trusted certificate: SITE_URL is what it refused.
    if (err instanceof MaxApiError && err.status === 400) {
      console.error('MAX refused the webhook:', err.message);
      return { status: 400, error: MSG.maxWebhookRefused };
    }
    return refused(err, 'webhook');
  }
  await saveMaxBot(env, bot);
  return { bot };
}

/** Forgets the bot, and takes its webhook subscription down if it can. */
export async function forgetMaxBotAndHook(env: Bindings): Promise<void> {
  const bot = await readMaxBot(env);
  await forgetMaxBot(env);
  if (bot?.mode === 'webhook') await dropSubscription(env, bot);
}

/** Takes down the bot's webhook subscription, if it can: MAX would go on posting to a path that is gone. */
async function dropSubscription(env: Bindings, bot: MaxBot): Promise<void> {
  if (!bot.hookUrl) return;
  await unsubscribeMax(env, bot.token, bot.hookUrl).catch((err) =>
    console.error('The MAX bot’s webhook could not be removed:', messageOf(err)),
  );
}

/** A key of the update of its own, by which it is taken once; undefined for the kinds not read. */
function keyOf(update: MaxUpdate): string | undefined {
  if (update.update_type === 'message_created' && update.message) return `m:${update.message.body.mid}`;
  if (update.update_type === 'bot_started' && update.user)
    return `s:${update.user.user_id}:${update.timestamp ?? ''}:${update.payload ?? ''}`;
  return undefined;
}

/**
 * The owner's «Начать» by the panel's start link: the owner's MAX account is the one alerts go to
 * (as «Проверить подключение» does, which cannot read updates while MAX posts them to the webhook).
 */
async function connectOwner(env: Bindings, bot: MaxBot, update: MaxUpdate): Promise<void> {
  const now = await readMaxBot(env);
  // The token may have changed meanwhile: only the same bot is connected.
  if (!now || now.token !== bot.token || now.payload !== bot.payload || !update.user) return;
  await saveMaxBot(env, {
    ...now,
    userId: update.user.user_id,
    chatId: update.chat_id ?? null,
    connectedAt: new Date().toISOString(),
  });
  console.log('The owner connected their MAX account for alerts');
}

/**
 * Takes one update of the bot: the owner's «Начать» connects the owner; a guest's «Начать» with a
 * one-time code ties their dialog to the booking; «стоп» unties it; anything else a guest writes
 * goes into their booking's thread (then the owner's alert, and the automatic answer outside the
 * owner's hours). Each is recorded once by its key, in the batch of what it does, and a second
 * delivery does nothing and says nothing. The answer in the dialog is tried once.
 */
export async function takeMaxGuestUpdate(
  env: Bindings,
  bot: MaxBot,
  update: MaxUpdate,
  /** Where the owner's alert runs: after the webhook's answer there, in turn when polling. */
  later: (label: string, task: Promise<unknown>) => unknown = (_, task) => task,
): Promise<void> {
  const key = keyOf(update);
  if (!key) return;
  if (update.update_type === 'bot_started') {
    const userId = String(update.user!.user_id);
    const payload = update.payload?.trim();
    if (payload && payload === bot.payload) return connectOwner(env, bot, update);
    const taken = await takeMaxUpdate(env, key, payload ? { start: payload, userId } : null);
    if (!taken.fresh) return;
    if (taken.linked !== null) console.log(`Booking ${taken.linked}: the guest tied a MAX dialog`);
    if (taken.cleaner) console.log(`Cleaner ${taken.cleaner} tied a MAX dialog for the morning list`);
    return answer(
      env,
      bot,
      userId,
      !payload
        ? MAX_REPLIES.bareStart
        : taken.linked !== null
          ? MAX_REPLIES.linked
          : taken.cleaner
            ? CLEANING_TEXTS.linked
            : MAX_REPLIES.stale,
    );
  }
  const message = update.message!;
  const sender = message.sender;
  // The bot's own messages, and the owner's words to the bot of their alerts, are nobody's guest's.
  if (!sender || sender.is_bot || (bot.userId !== null && sender.user_id === bot.userId)) {
    await takeMaxUpdate(env, key, null);
    return;
  }
  const userId = String(sender.user_id);
  const text = message.body.text?.trim() ?? '';
  if (text && isStopWord(text)) {
    const taken = await takeMaxUpdate(env, key, { stop: userId });
    if (!taken.fresh) return;
    if (taken.unlinked > 0) console.log(`A guest untied their MAX dialog from ${taken.unlinked} booking(s)`);
    return answer(env, bot, userId, MAX_REPLIES.stopped);
  }
  const alert = text ? ownerAlertOfGuestWords(env, 'MAX', text) : null;
  const taken = await takeMaxUpdate(
    env,
    key,
    text ? { said: { userId, mid: message.body.mid, text: text.slice(0, MAX_TEXT_LIMIT) } } : null,
    alert?.alertOf,
  );
  if (!taken.fresh || !text) return;
  if (taken.storedFor !== undefined) {
    console.log('A guest wrote to the MAX bot: kept in their booking’s thread');
    await later('The owner’s alert of a guest’s message', alert?.sendNow(taken.alerted) ?? Promise.resolve());
    await autoAnswerGuest(env, 'max', taken.storedFor, (row) => tryMaxNow(env, bot, row));
    return;
  }
  // A dialog tied to no booking is told what the bot is for.
  return answer(env, bot, userId, MAX_REPLIES.other);
}

const answer = (env: Bindings, bot: MaxBot, userId: string, text: string) =>
  sendMaxMessage(env, bot.token, Number(userId), text).catch((err) =>
    console.error('The MAX bot could not answer a guest:', messageOf(err)),
  );

/**
 * Reads what the bot got since the last read (long polling up to `waitS` seconds; the marker also
 * tells MAX to drop the ones before) and takes each. Nothing in webhook mode: MAX gives nothing to
 * GET /updates then. The schedule's part where the server has no public address, and «Проверить
 * подключение»'s. Throws MaxApiError when MAX refuses.
 */
export async function pollMax(env: Bindings, waitS = 0, signal?: AbortSignal): Promise<number> {
  const bot = await readMaxBot(env);
  if (!bot || bot.mode !== 'polling') return 0;
  const { updates, marker } = await getMaxUpdates(env, bot.token, waitS, await readMaxMarker(env, bot), signal);
  for (const update of updates) await takeMaxGuestUpdate(env, bot, update);
  // The marker moves on only once each update is kept (in the batch that records its key): a stop
  // in between reads them again, and the recorded ones change nothing the second time.
  if (marker != null) await saveMaxMarker(env, bot, marker);
  return updates.length;
}

/** The schedule's poll (and the self-hosted server's long one): never throws, MAX's refusal is logged. */
export const pollMaxQuietly = (env: Bindings, waitS = 0, signal?: AbortSignal) =>
  pollMax(env, waitS, signal).catch((err) => {
    if (!signal?.aborted) console.error('Reading the MAX bot failed:', messageOf(err));
    return 0;
  });

type HeldMax = Pick<OutboxRow, 'id' | 'attempts' | 'createdAt' | 'bookingId' | 'kind' | 'text'> & {
  recipient: string;
};

/**
 * One try of a MAX message this sender holds: noted as sent, or as failed with the next try after
 * the backoff; a guest who blocked the bot has their dialog untied and the message given up.
 */
async function deliver(env: Bindings, bot: MaxBot, row: HeldMax): Promise<boolean> {
  try {
    // A long text goes in parts, each noted as it goes: a try after a failure starts at the next.
    const from = await partsSentOf(env, row.id);
    await sendMaxGuestText(env, bot.token, row.recipient, row.text, from, (count) => notePartSent(env, row.id, count));
    await markSent(env, row.id);
    return true;
  } catch (err) {
    // A revoked token is 401, never this: the dialog alone is gone.
    if (err instanceof MaxApiError && err.chatGone) {
      await dropMaxChat(env, row.bookingId!, row.recipient);
      console.log(`The ${row.kind} MAX message of booking ${row.bookingId} given up: the guest blocked the bot`);
      await markFailed(env, row.id, 'Гость заблокировал бота в MAX', { giveUp: true });
      return false;
    }
    const tooOld = triedTooLong(row);
    console.error(
      `The ${row.kind} MAX message of booking ${row.bookingId} failed (try ${row.attempts + 1})${tooOld ? ', given up after 3 days' : ', kept for the schedule'}:`,
      messageOf(err),
    );
    await markTryFailed(env, row, err, tooOld);
    return false;
  }
}

/** The first try of a message just kept; never throws. */
export const tryMaxNow = (env: Bindings, bot: MaxBot, row: HeldMax): Promise<boolean> =>
  deliver(env, bot, row).catch((err) => {
    console.error(`The ${row.kind} MAX message of booking ${row.bookingId} could not be tried:`, messageOf(err));
    return false;
  });

/**
 * Sends one due MAX message of a guest that the drain has claimed: given up when the bot is gone,
 * the guest untied the dialog (or tied another), or the message must not go any more for the
 * reasons an e-mail would not (its booking cancelled, the arrival passed).
 */
export async function sendGuestMax(
  env: Bindings,
  row: OutboxRow,
  stay: MessageStay | undefined,
): Promise<'sent' | 'failed' | 'given up'> {
  const giveUp = async (why: string) => {
    console.log(`The ${row.kind} MAX message of booking ${row.bookingId} given up: ${why}`);
    await markFailed(env, row.id, why, { giveUp: true });
    return 'given up' as const;
  };
  const [bot, user] = await Promise.all([readMaxBot(env), maxUserOf(env, row.bookingId!)]);
  if (!bot) return giveUp(MSG.maxNotConfigured);
  if (!row.recipient || user !== row.recipient) return giveUp('Гость отписался от сообщений в MAX');
  const why = whyStayRefuses(row, stay, todayInMoscow(now()));
  if (why) return giveUp(why);
  return (await deliver(env, bot, { ...row, recipient: row.recipient })) ? 'sent' : 'failed';
}

/**
 * The owner's «Подтвердить» in «Заявки»: the confirmation for the guest's MAX dialog too, under the
 * same switch as its e-mail, once per booking like it, tried at once. Never throws.
 */
export async function maxConfirmation(
  env: Bindings,
  booking: Pick<Booking, 'id' | 'checkIn' | 'checkOut' | 'guestToken'>,
  cabinName: string,
  origin?: string,
): Promise<void> {
  const kind: GuestMessageKind = 'confirmation';
  try {
    const site = messageOrigin(env, origin);
    if (!booking.guestToken || !site) return;
    const [bot, { messages }] = await Promise.all([readMaxBot(env), getSettings(env)]);
    if (!bot || !messages.confirmation.enabled) return;
    const words = telegramGuestText(kind, { ...booking, guestToken: booking.guestToken, cabinName }, site);
    const at = now();
    const [row] = await insertWhen(
      getDb(env),
      outbox,
      {
        channel: 'max',
        ...words,
        attempts: 0,
        nextAttemptAt: at,
        leaseUntil: at + GUEST_LEASE_MS,
        createdAt: at,
        bookingId: booking.id,
        kind,
        recipient: sql`guest_max_chats.user_id`,
        event: '',
      },
      sql`guest_max_chats.booking_id = ${booking.id}`,
      sql`guest_max_chats`,
    )
      .onConflictDoNothing()
      .returning({ id: outbox.id, recipient: outbox.recipient });
    if (!row?.recipient) return;
    await tryMaxNow(env, bot, {
      id: row.id,
      attempts: 0,
      createdAt: at,
      bookingId: booking.id,
      kind,
      recipient: row.recipient,
      text: words.text,
    });
  } catch (err) {
    console.error(`The ${kind} MAX message of booking ${booking.id} could not be kept:`, messageOf(err));
  }
}
