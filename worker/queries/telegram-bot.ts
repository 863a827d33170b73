import { and, eq, inArray, lt, max } from 'drizzle-orm';
import { z } from 'zod';
import type { TelegramStatus } from '../../schema/telegram.ts';
import { guestChats, guestLinkCodes, telegramUpdates } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import { siteRecord } from './site-state.ts';
import { sha256Hex } from '../lib/password.ts';
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
export const saveTelegramBot = (env: DbEnv, bot: TelegramBot): Promise<void> => record.save(env, bot);
export const forgetTelegramBot = (env: DbEnv): Promise<void> => record.forget(env);

/** Notes Telegram's refusal (or its end) on the bot as it is now, unless the token changed meanwhile. */
export async function noteTelegramError(env: DbEnv, token: string, error: string | null): Promise<void> {
  const bot = await readTelegramBot(env);
  if (!bot || bot.token !== token || bot.error === error) return;
  await saveTelegramBot(env, { ...bot, error });
}

/** A fresh secret: `bytes` random bytes in hex (Telegram's secret_token takes up to 256 such characters). */
export const randomHex = (bytes: number) =>
  [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');

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

// ——— One-time link codes and the chats they tie.

/**
 * A new one-time code for the booking's link to the bot of `channel` (Telegram's, or MAX's), with
 * the consent wording the guest saw; only its hash is stored. Codes that ran out more than a day
 * ago are swept in the same batch.
 */
export async function newLinkCode(
  env: DbEnv,
  bookingId: number,
  consent: string,
  ttlMs: number,
  channel: 'telegram' | 'max' = 'telegram',
): Promise<{ code: string; expiresAt: number }> {
  const code = randomHex(16);
  const at = now();
  const db = getDb(env);
  await db.batch([
    db.delete(guestLinkCodes).where(lt(guestLinkCodes.expiresAt, at - 24 * 60 * 60_000)),
    db
      .insert(guestLinkCodes)
      .values({ codeHash: await sha256Hex(code), bookingId, consent, createdAt: at, expiresAt: at + ttlMs, channel }),
  ]);
  return { code, expiresAt: at + ttlMs };
}

/**
 * What one update did: `fresh` false when it was taken before (nothing was done again); `stored`
 * when the guest's words went into their booking's thread.
 */
export type UpdateTaken = {
  fresh: boolean;
  linked: number | null;
  unlinked: number;
  stored?: boolean;
  /** The booking whose thread the guest's words went into. */
  storedFor?: number;
};

/** The booking a chat's words belong to: of the bookings the chat is tied to, the one tied last. */
const chatBooking =
  '(select booking_id from guest_chats where chat_id = ?3 order by linked_at desc, booking_id desc limit 1)';

/** The update (?1: the bot's id, ?2: update_id) is not yet recorded: a statement of its batch acts only then. */
const notSeen = 'not exists (select 1 from telegram_updates u where u.bot_id = ?1 and u.update_id = ?2)';

/**
 * Takes one update of the bot, once, in one batch: each statement acts only when the update was
 * not taken before, and the last one records it. `start` uses a one-time code (unused, not run
 * out) and ties `chatId` to its booking with the consent stored with the code; `stop` unties every
 * booking of the chat; `said` stores what the guest wrote in the thread of the booking the chat was
 * tied to last (made if there is none), once by the message's id too. A second delivery of the same
 * update, or a webhook's and a poll's at once, finds it recorded and changes nothing.
 */
export async function takeTelegramUpdate(
  env: DbEnv,
  botId: number,
  updateId: number,
  act:
    | { start: string; chatId: string }
    | { stop: string }
    | { said: { chatId: string; messageId: string; text: string } }
    | null,
): Promise<UpdateTaken> {
  const at = now();
  const record = env.DB.prepare(
    'insert into telegram_updates (bot_id, update_id, received_at) values (?1, ?2, ?3) on conflict do nothing returning update_id',
  ).bind(botId, updateId, at);
  if (!act) {
    const [recorded] = await env.DB.batch<{ update_id: number }>([record]);
    return { fresh: (recorded?.results.length ?? 0) > 0, linked: null, unlinked: 0 };
  }
  if ('said' in act) {
    const { chatId, messageId, text } = act.said;
    const [, stored, recorded] = await env.DB.batch<{ thread_id: number }>([
      env.DB.prepare(
        `insert into threads (channel, booking_id, created_at)
         select 'telegram', b.booking_id, ?4 from ${chatBooking} b
         where not exists (select 1 from threads t where t.channel = 'telegram' and t.booking_id = b.booking_id)
           and ${notSeen}`,
      ).bind(botId, updateId, chatId, at),
      env.DB.prepare(
        `insert into messages (thread_id, channel, direction, platform_id, text, status, at)
         select t.id, 'telegram', 'in', ?5, ?6, 'received', ?4 from threads t
         where t.channel = 'telegram' and t.booking_id = ${chatBooking} and ${notSeen}
         on conflict do nothing returning thread_id`,
      ).bind(botId, updateId, chatId, at, `${chatId}:${messageId}`, text),
      record,
    ]);
    const threadId = stored?.results[0]?.thread_id;
    const thread =
      threadId === undefined
        ? null
        : await env.DB.prepare('select booking_id from threads where id = ?1')
            .bind(threadId)
            .first<{ booking_id: number | null }>();
    return {
      fresh: (recorded?.results.length ?? 0) > 0,
      linked: null,
      unlinked: 0,
      stored: threadId !== undefined,
      ...(thread?.booking_id != null ? { storedFor: thread.booking_id } : {}),
    };
  }
  if ('stop' in act) {
    const [unlinked, recorded] = await env.DB.batch<{ booking_id: number }>([
      env.DB.prepare(`delete from guest_chats where chat_id = ?3 and ${notSeen} returning booking_id`).bind(
        botId,
        updateId,
        act.stop,
      ),
      record,
    ]);
    return {
      fresh: (recorded?.results.length ?? 0) > 0,
      linked: null,
      unlinked: unlinked?.results.length ?? 0,
    };
  }
  const hash = await sha256Hex(act.start);
  const [used, , recorded] = await env.DB.batch<{ booking_id: number }>([
    env.DB.prepare(
      `update guest_link_codes set used_at = ?4, used_by = ?2
       where code_hash = ?3 and channel = 'telegram' and used_at is null and expires_at > ?4 and ${notSeen}
       returning booking_id`,
    ).bind(botId, updateId, hash, at),
    env.DB.prepare(
      `insert into guest_chats (booking_id, chat_id, consent, linked_at)
       select booking_id, ?5, consent, ?4 from guest_link_codes
       where code_hash = ?3 and used_by = ?2 and used_at = ?4 and ${notSeen}
       on conflict(booking_id) do update set chat_id = excluded.chat_id, consent = excluded.consent, linked_at = excluded.linked_at`,
    ).bind(botId, updateId, hash, at, act.chatId),
    record,
  ]);
  return {
    fresh: (recorded?.results.length ?? 0) > 0,
    linked: used?.results[0]?.booking_id ?? null,
    unlinked: 0,
  };
}

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
export async function chatOf(env: DbEnv, bookingId: number): Promise<string | undefined> {
  const row = await getDb(env)
    .select({ chatId: guestChats.chatId })
    .from(guestChats)
    .where(eq(guestChats.bookingId, bookingId))
    .get();
  return row?.chatId;
}

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
export async function dropChat(env: DbEnv, bookingId: number, chatId: string): Promise<void> {
  await getDb(env)
    .delete(guestChats)
    .where(and(eq(guestChats.bookingId, bookingId), eq(guestChats.chatId, chatId)));
}
