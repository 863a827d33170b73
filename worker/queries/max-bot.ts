import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { maxStartLink, type MaxStatus } from '../../schema/max.ts';
import type { maxGuestStatusSchema } from '../../schema/telegram.ts';
import { guestMaxChats } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import { sha256Hex } from '../lib/password.ts';
import { siteRecord } from './site-state.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };

/**
 * The owner's MAX bot lives in site_state, not in settings: everything in settings is public
 * (GET /api/settings, the built site), and the token is a secret only the server reads.
 */
const KEY = 'maxBot';

const storedSchema = z.object({
  token: z.string().min(1),
  name: z.string(),
  username: z.string(),
  /** The secret in the bot's start link: whoever opens the bot with it is the owner. */
  payload: z.string(),
  userId: z.number().nullable(),
  chatId: z.number().nullable(),
  connectedAt: z.string().nullable(),
  /**
   * How updates come: posted by MAX to /api/hooks/max/{hookSecret} with `headerSecret` in
   * X-Max-Bot-Api-Secret (SITE_URL is https), or read by long polling (no public address). A bot
   * kept before guests were served reads as polling.
   */
  mode: z.enum(['webhook', 'polling']).default('polling'),
  hookSecret: z.string().nullable().default(null),
  headerSecret: z.string().nullable().default(null),
  /** The address MAX was subscribed to, to take it down by (SITE_URL may have changed since). */
  hookUrl: z.string().nullable().default(null),
});
export type MaxBot = z.infer<typeof storedSchema>;

const record = siteRecord(KEY, storedSchema);
export const readMaxBot = (env: DbEnv): Promise<MaxBot | null> => record.read(env);
/** Saves the bot; the fields of the guests' side may be left out (a bot kept before them reads as polling). */
export const saveMaxBot = (env: DbEnv, bot: z.input<typeof storedSchema>): Promise<void> =>
  record.save(env, bot as MaxBot);
export const forgetMaxBot = (env: DbEnv): Promise<void> => record.forget(env);

/** A fresh start-link secret: 24 random bytes in hex (MAX takes up to 128 such characters). */
export const newStartPayload = () =>
  [...crypto.getRandomValues(new Uint8Array(24))].map((b) => b.toString(16).padStart(2, '0')).join('');

/** What the panel may see: whether a token is set (its last 4 characters), never the token. */
export function maxStatus(bot: MaxBot | null): MaxStatus {
  if (!bot)
    return {
      configured: false,
      tokenEnding: null,
      botName: null,
      botUsername: null,
      link: null,
      connected: false,
      connectedAt: null,
    };
  return {
    configured: true,
    // A short token would give too much of itself away in 4 characters.
    tokenEnding: bot.token.length >= 16 ? bot.token.slice(-4) : null,
    botName: bot.name,
    botUsername: bot.username,
    link: maxStartLink(bot.username, bot.payload),
    connected: bot.userId !== null,
    connectedAt: bot.connectedAt,
  };
}

// ——— Guests' dialogs with the bot (docs/api.md «Messengers»).

/**
 * Where polling goes on from: GET /updates's marker, for the bot whose start payload it names (a
 * new token has a new payload and starts over). Apart from the bot, so a poll and the owner's
 * panel never overwrite each other's writes.
 */
const markerRecord = siteRecord('maxUpdatesMarker', z.object({ payload: z.string(), marker: z.number() }));
export async function readMaxMarker(env: DbEnv, bot: MaxBot): Promise<number | undefined> {
  const kept = await markerRecord.read(env);
  return kept?.payload === bot.payload ? kept.marker : undefined;
}
export const saveMaxMarker = (env: DbEnv, bot: MaxBot, marker: number) =>
  markerRecord.save(env, { payload: bot.payload, marker });

/** What one update did; see takeMaxUpdate. */
export type MaxUpdateTaken = {
  fresh: boolean;
  linked: number | null;
  unlinked: number;
  stored?: boolean;
  storedFor?: number;
};

/** The booking a guest's words belong to: of the bookings their dialog is tied to, the one tied last. */
const userBooking =
  '(select booking_id from guest_max_chats where user_id = ?3 order by linked_at desc, booking_id desc limit 1)';
/** The update (?1: its key) is not yet recorded: a statement of its batch acts only then. */
const notSeen = 'not exists (select 1 from max_updates u where u.key = ?1)';

/**
 * Takes one update of the bot, once, in one batch, as takeTelegramUpdate does: `start` uses a
 * one-time code of MAX's (unused, not run out) and ties the guest's dialog to its booking with the
 * consent kept with the code; `stop` unties every booking of the guest; `said` stores what the
 * guest wrote in the thread (channel 'max') of the booking tied last, once by its `mid` too. `key`
 * names the update; a second delivery finds it recorded and changes nothing.
 */
export async function takeMaxUpdate(
  env: DbEnv,
  key: string,
  act:
    | { start: string; userId: string }
    | { stop: string }
    | { said: { userId: string; mid: string; text: string } }
    | null,
): Promise<MaxUpdateTaken> {
  const at = now();
  const record = env.DB.prepare(
    'insert into max_updates (key, received_at) values (?1, ?2) on conflict do nothing returning key',
  ).bind(key, at);
  const freshOf = (r: { results: unknown[] } | undefined) => (r?.results.length ?? 0) > 0;
  if (!act) {
    const [recorded] = await env.DB.batch([record]);
    return { fresh: freshOf(recorded), linked: null, unlinked: 0 };
  }
  if ('said' in act) {
    const { userId, mid, text } = act.said;
    const [, stored, recorded] = await env.DB.batch<{ thread_id: number }>([
      env.DB.prepare(
        `insert into threads (channel, booking_id, created_at)
         select 'max', b.booking_id, ?2 from ${userBooking} b
         where not exists (select 1 from threads t where t.channel = 'max' and t.booking_id = b.booking_id)
           and ${notSeen}`,
      ).bind(key, at, userId),
      env.DB.prepare(
        `insert into messages (thread_id, channel, direction, platform_id, text, status, at)
         select t.id, 'max', 'in', ?4, ?5, 'received', ?2 from threads t
         where t.channel = 'max' and t.booking_id = ${userBooking} and ${notSeen}
         on conflict do nothing returning thread_id`,
      ).bind(key, at, userId, mid, text),
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
      fresh: freshOf(recorded),
      linked: null,
      unlinked: 0,
      stored: threadId !== undefined,
      ...(thread?.booking_id != null ? { storedFor: thread.booking_id } : {}),
    };
  }
  if ('stop' in act) {
    const [unlinked, recorded] = await env.DB.batch<{ booking_id: number }>([
      env.DB.prepare(`delete from guest_max_chats where user_id = ?3 and ${notSeen} returning booking_id`).bind(
        key,
        at,
        act.stop,
      ),
      record,
    ]);
    return { fresh: freshOf(recorded), linked: null, unlinked: unlinked?.results.length ?? 0 };
  }
  const hash = await sha256Hex(act.start);
  // Which use of the code this is: the tie below reads the code this very statement used.
  const use = crypto.getRandomValues(new Uint32Array(1))[0]!;
  const [used, , recorded] = await env.DB.batch<{ booking_id: number }>([
    env.DB.prepare(
      `update guest_link_codes set used_at = ?2, used_by = ?4
       where code_hash = ?3 and channel = 'max' and used_at is null and expires_at > ?2 and ${notSeen}
       returning booking_id`,
    ).bind(key, at, hash, use),
    env.DB.prepare(
      `insert into guest_max_chats (booking_id, user_id, consent, linked_at)
       select booking_id, ?5, consent, ?2 from guest_link_codes
       where code_hash = ?3 and channel = 'max' and used_by = ?4 and used_at = ?2 and ${notSeen}
       on conflict(booking_id) do update set user_id = excluded.user_id, consent = excluded.consent, linked_at = excluded.linked_at`,
    ).bind(key, at, hash, use, act.userId),
    record,
  ]);
  return { fresh: freshOf(recorded), linked: used?.results[0]?.booking_id ?? null, unlinked: 0 };
}

/** Forgets the keys of updates taken before `before` (ms): MAX delivers an update again within minutes, not days. */
export async function forgetOldMaxUpdates(env: DbEnv, before: number): Promise<void> {
  await env.DB.prepare('delete from max_updates where received_at < ?1').bind(before).run();
}

/** The MAX user a booking's messages go to, if the guest tied their dialog. */
export async function maxUserOf(env: DbEnv, bookingId: number): Promise<string | undefined> {
  const row = await getDb(env)
    .select({ userId: guestMaxChats.userId })
    .from(guestMaxChats)
    .where(eq(guestMaxChats.bookingId, bookingId))
    .get();
  return row?.userId;
}

/** Unties a dialog the bot can no longer write to (the guest blocked it), so nothing more is tried there. */
export async function dropMaxChat(env: DbEnv, bookingId: number, userId: string): Promise<void> {
  await getDb(env)
    .delete(guestMaxChats)
    .where(and(eq(guestMaxChats.bookingId, bookingId), eq(guestMaxChats.userId, userId)));
}

/** The bot as guests' messenger, for GET /admin/messengers: never the token, only its last 4 characters. */
export function maxGuestStatus(bot: MaxBot | null): z.infer<typeof maxGuestStatusSchema> {
  if (!bot) return { connected: false, last4: null };
  return {
    connected: true,
    botUsername: bot.username,
    botName: bot.name,
    last4: bot.token.length >= 16 ? bot.token.slice(-4) : null,
    mode: bot.mode,
  };
}
