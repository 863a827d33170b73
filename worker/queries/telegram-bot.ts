import { eq, inArray, max } from 'drizzle-orm';
import { z } from 'zod';
import type { TelegramStatus } from '../../schema/telegram.ts';
import { guestChats, telegramUpdates } from '../../schema/tables.ts';
import { getDb } from '../lib/db.ts';
import { siteRecord } from './site-state.ts';
import {
  chatOf as chatOfMessenger,
  dropChat as dropMessengerChat,
  TELEGRAM_GUESTS,
  takeGuestUpdate,
  type AlertOf,
  type UpdateTaken,
} from './guest-bots.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };

/**
 * The guests' Telegram bot lives in site_state, not in settings: everything in settings is public
 * (GET /api/settings, the built site), and the token is a secret only the server reads.
 */
const KEY = 'telegramGuestBot';

const storedSchema = z.object({
  token: z.string().min(1),
  id: z.number(),
  username: z.string(),
  name: z.string(),
  /** The secret part of the webhook's path: a request to any other path is not Telegram's. */
  hookSecret: z.string(),
  /** What Telegram sends back in X-Telegram-Bot-Api-Secret-Token with every update. */
  headerSecret: z.string(),
  mode: z.enum(['webhook', 'polling']),
  /** Telegram's last refusal while the schedule read updates; null once a read went through. */
  error: z.string().nullable(),
});
export type TelegramBot = z.infer<typeof storedSchema>;

const record = siteRecord(KEY, storedSchema);
export const readTelegramBot = (env: DbEnv): Promise<TelegramBot | null> => record.read(env);
/** The bot's row not yet read, for a batch, and what the row reads as. */
export const telegramBotRow = { query: record.query, from: record.from };
export const saveTelegramBot = (env: DbEnv, bot: TelegramBot): Promise<void> => record.save(env, bot);
export const forgetTelegramBot = (env: DbEnv): Promise<void> => record.forget(env);

/** Notes Telegram's refusal (or its end) on the bot as it is now, unless the token changed meanwhile. */
export async function noteTelegramError(env: DbEnv, token: string, error: string | null): Promise<void> {
  const bot = await readTelegramBot(env);
  if (!bot || bot.token !== token || bot.error === error) return;
  await saveTelegramBot(env, { ...bot, error });
}

/** What the panel may see: whether a bot is set (its token's last 4 characters), never the token. */
export function telegramStatus(bot: TelegramBot | null): TelegramStatus {
  if (!bot) return { connected: false, last4: null };
  return {
    connected: true,
    botUsername: bot.username,
    botName: bot.name,
    last4: bot.token.slice(-4),
    mode: bot.mode,
    ...(bot.error ? { error: bot.error } : {}),
  };
}

// ——— The updates taken and the chats guests tied (what MAX's bot does alike: guest-bots.ts).

/**
 * Takes one update of the bot once (takeGuestUpdate), named by the bot's id and its update_id: a
 * second delivery of the same update, or a webhook's and a poll's at once, changes nothing.
 */
export const takeTelegramUpdate = (
  env: DbEnv,
  botId: number,
  updateId: number,
  act:
    | { start: string; chatId: string }
    | { stop: string }
    | { said: { chatId: string; messageId: string; text: string } }
    | null,
  alertOf?: AlertOf,
): Promise<UpdateTaken> =>
  takeGuestUpdate(
    env,
    TELEGRAM_GUESTS,
    {
      params: [botId, updateId],
      notSeen: 'not exists (select 1 from telegram_updates u where u.bot_id = ?1 and u.update_id = ?2)',
      record:
        'insert into telegram_updates (bot_id, update_id, received_at) values (?1, ?2, ?3) on conflict do nothing returning update_id',
    },
    act && 'said' in act
      ? // A message's id is unique within its chat only.
        { said: { ...act.said, platformId: `${act.said.chatId}:${act.said.messageId}` } }
      : act,
    alertOf,
  );

/** Where polling goes on from: the update after the newest one taken of this bot. */
export async function nextUpdateOffset(env: DbEnv, botId: number): Promise<number | undefined> {
  const row = await getDb(env)
    .select({ last: max(telegramUpdates.updateId) })
    .from(telegramUpdates)
    .where(eq(telegramUpdates.botId, botId))
    .get();
  return row?.last == null ? undefined : row.last + 1;
}

/** Forgets the ids of updates taken before `before` (ms), keeping each bot's newest (polling goes on from it). */
export async function forgetOldUpdates(env: DbEnv, before: number): Promise<void> {
  await env.DB.prepare(
    `delete from telegram_updates where received_at < ?1
     and update_id < (select max(u.update_id) from telegram_updates u where u.bot_id = telegram_updates.bot_id)`,
  )
    .bind(before)
    .run();
}

/** The chat a booking's messages go to, if the guest tied one. */
export const chatOf = (env: DbEnv, bookingId: number) => chatOfMessenger(env, TELEGRAM_GUESTS, bookingId);

/** The chats of several bookings (the schedule's reminders and review requests). */
export async function chatsOf(env: DbEnv, bookingIds: number[]): Promise<Map<number, string>> {
  if (bookingIds.length === 0) return new Map();
  const rows = await getDb(env)
    .select({ bookingId: guestChats.bookingId, chatId: guestChats.chatId })
    .from(guestChats)
    .where(inArray(guestChats.bookingId, bookingIds));
  return new Map(rows.map((r) => [r.bookingId, r.chatId]));
}

/** Unties a chat the bot can no longer write to (the guest blocked it), so nothing more is tried there. */
export const dropChat = (env: DbEnv, bookingId: number, chatId: string) =>
  dropMessengerChat(env, TELEGRAM_GUESTS, bookingId, chatId);
