import { lt } from 'drizzle-orm';
import { guestLinkCodes } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import { sha256Hex } from '../lib/password.ts';
import type { DatabasePort } from '../platform/ports.ts';

// What the guests' Telegram bot and the owner's MAX bot (serving guests too) do alike with what
// guests send them: one-time link codes, the updates taken once, and the chats guests tied. Each
// platform's own parts (the bot's record, how an update is named) are in telegram-bot.ts and
// max-bot.ts.

type DbEnv = { DB: DatabasePort };

/** A messenger guests tie to their booking: its thread channel and the table of the chats tied. */
export type GuestMessenger =
  | { channel: 'telegram'; chats: 'guest_chats'; chatColumn: 'chat_id' }
  | { channel: 'max'; chats: 'guest_max_chats'; chatColumn: 'user_id' };
export const TELEGRAM_GUESTS: GuestMessenger = { channel: 'telegram', chats: 'guest_chats', chatColumn: 'chat_id' };
export const MAX_GUESTS: GuestMessenger = { channel: 'max', chats: 'guest_max_chats', chatColumn: 'user_id' };

/** A fresh secret: `bytes` random bytes in hex (Telegram's secret_token takes up to 256 such characters). */
export const randomHex = (bytes: number) =>
  [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, '0')).join('');

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
  channel: GuestMessenger['channel'] = 'telegram',
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
  /** The cleaner whose code tied the chat (their morning list goes there, worker/notify/cleaning.ts). */
  cleaner?: number | null;
  /** The owner's alert of the guest's words, kept by the batch that stored them: its rows by channel. */
  alerted?: { channel: string; id: number }[];
};

/**
 * The owner's alert of a guest's words, as outbox rows (one per channel of the owner's alerts) for
 * the batch that stores the words, given the booking the chat is tied to; null when there is none
 * to send. `leaseUntil`: the rows are held while the caller tries them at once.
 */
export type AlertOf = (
  bookingId: number,
) => Promise<{ rows: { channel: string; subject: string; text: string }[]; leaseUntil: number } | null>;

/**
 * How a platform names one update: `params` (bound first, as ?1…?k), `notSeen`, an SQL condition
 * on them that holds while the update is not recorded, and `record`, the statement that records it
 * (with the time as ?k+1), returning a row only when it was not recorded before.
 */
export type UpdateKey = { params: unknown[]; notSeen: string; record: string };

/** What an update asks: tie a chat by a code, untie it, keep the guest's words, or nothing. */
export type GuestAct =
  | { start: string; chatId: string }
  | { stop: string }
  | { said: { chatId: string; platformId: string; text: string } }
  | null;

/**
 * Takes one update of a messenger's bot, once, in one batch: each statement acts only when the
 * update was not taken before, and the last one records it. `start` uses a one-time code of the
 * messenger (unused, not run out) and ties the chat to its booking with the consent stored with
 * the code; `stop` unties every booking of the chat; `said` stores what the guest wrote in the
 * thread of the booking the chat was tied to last (made if there is none), once by its platform id
 * too. A second delivery of the same update, or a webhook's and a poll's at once, finds it recorded
 * and changes nothing.
 */
export async function takeGuestUpdate(
  env: DbEnv,
  messenger: GuestMessenger,
  key: UpdateKey,
  act: GuestAct,
  alertOf?: AlertOf,
): Promise<UpdateTaken> {
  const at = now();
  const { channel, chats, chatColumn } = messenger;
  // After the key's own parameters: the time, the chat, then two of the act's own.
  const k = key.params.length;
  const [AT, CHAT, THIRD, FOURTH] = [1, 2, 3, 4].map((n) => `?${k + n}`);
  const bound = (query: string, ...rest: unknown[]) => env.DB.prepare(query).bind(...key.params, at, ...rest);
  const record = bound(key.record);
  const freshOf = (r: { results: unknown[] } | undefined) => (r?.results.length ?? 0) > 0;
  if (!act) {
    const [recorded] = await env.DB.batch([record]);
    return { fresh: freshOf(recorded), linked: null, unlinked: 0 };
  }
  /** The booking a chat's words belong to: of the bookings the chat (bound as `chat`) is tied to, the one tied last. */
  const bookingOfChat = (chat: string) =>
    `(select booking_id from ${chats} where ${chatColumn} = ${chat} order by linked_at desc, booking_id desc limit 1)`;
  const chatBooking = bookingOfChat(CHAT);
  if ('said' in act) {
    const { chatId, platformId, text } = act.said;
    // The owner's alert is written by the same batch as the words, before them and on the same
    // conditions (the update not taken, the words not stored, the chat still tied to the booking
    // read here): a server killed right after the batch leaves it to the schedule's drain.
    const tiedTo = alertOf
      ? await env.DB.prepare(`select ${bookingOfChat('?1')} as booking_id`)
          .bind(chatId)
          .first<{ booking_id: number | null }>()
      : null;
    const alert = tiedTo?.booking_id != null && alertOf ? await alertOf(tiedTo.booking_id) : null;
    const alertRows = (alert?.rows ?? []).map((row) =>
      bound(
        `insert into outbox (channel, subject, text, attempts, next_attempt_at, lease_until, created_at, event)
         select ${THIRD}, ${FOURTH}, ?${k + 5}, 0, ${AT}, ?${k + 6}, ${AT}, ''
         where ${key.notSeen} and ${chatBooking} = ?${k + 7}
           and not exists (select 1 from messages m where m.channel = '${channel}' and m.platform_id = ?${k + 8})
         returning id`,
        chatId,
        row.channel,
        row.subject,
        row.text,
        alert!.leaseUntil,
        tiedTo!.booking_id,
        platformId,
      ),
    );
    const results = await env.DB.batch<{ thread_id: number; id: number }>([
      ...alertRows,
      bound(
        `insert into threads (channel, booking_id, created_at)
         select '${channel}', b.booking_id, ${AT} from ${chatBooking} b
         where not exists (select 1 from threads t where t.channel = '${channel}' and t.booking_id = b.booking_id)
           and ${key.notSeen}`,
        chatId,
      ),
      bound(
        `insert into messages (thread_id, channel, direction, platform_id, text, status, at)
         select t.id, '${channel}', 'in', ${THIRD}, ${FOURTH}, 'received', ${AT} from threads t
         where t.channel = '${channel}' and t.booking_id = ${chatBooking} and ${key.notSeen}
         on conflict do nothing returning thread_id`,
        chatId,
        platformId,
        text,
      ),
      record,
    ]);
    const [stored, recorded] = results.slice(alertRows.length + 1);
    const alerted = (alert?.rows ?? []).flatMap((row, i) => {
      const id = results[i]?.results[0]?.id;
      return id === undefined ? [] : [{ channel: row.channel, id }];
    });
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
      ...(alerted.length ? { alerted } : {}),
    };
  }
  if ('stop' in act) {
    const [unlinked, , recorded] = await env.DB.batch<{ booking_id: number }>([
      bound(`delete from ${chats} where ${chatColumn} = ${CHAT} and ${key.notSeen} returning booking_id`, act.stop),
      // A cleaner's «стоп» ends their morning list in this messenger too.
      bound(
        `delete from cleaner_chats where channel = '${channel}' and chat_id = ${CHAT} and ${key.notSeen}`,
        act.stop,
      ),
      record,
    ]);
    return { fresh: freshOf(recorded), linked: null, unlinked: unlinked?.results.length ?? 0 };
  }
  const hash = await sha256Hex(act.start);
  // Which use of the code this is: the tie below reads the code this very statement used.
  const use = crypto.getRandomValues(new Uint32Array(1))[0]!;
  const [used, , cleaner, , recorded] = await env.DB.batch<{ booking_id: number; user_id: number }>([
    bound(
      `update guest_link_codes set used_at = ${AT}, used_by = ${FOURTH}
       where code_hash = ${THIRD} and channel = '${channel}' and used_at is null and expires_at > ${AT} and ${key.notSeen}
       returning booking_id`,
      act.chatId,
      hash,
      use,
    ),
    bound(
      `insert into ${chats} (booking_id, ${chatColumn}, consent, linked_at)
       select booking_id, ${CHAT}, consent, ${AT} from guest_link_codes
       where code_hash = ${THIRD} and channel = '${channel}' and used_by = ${FOURTH} and used_at = ${AT} and ${key.notSeen}
       on conflict(booking_id) do update set ${chatColumn} = excluded.${chatColumn}, consent = excluded.consent, linked_at = excluded.linked_at`,
      act.chatId,
      hash,
      use,
    ),
    // A cleaner's code (from their «Сегодня») ties the chat to them, by the same steps.
    bound(
      `update cleaner_link_codes set used_at = ${AT}, used_by = ${FOURTH}
       where code_hash = ${THIRD} and channel = '${channel}' and used_at is null and expires_at > ${AT} and ${key.notSeen}
       returning user_id`,
      act.chatId,
      hash,
      use,
    ),
    bound(
      `insert into cleaner_chats (user_id, channel, chat_id, linked_at)
       select c.user_id, '${channel}', ${CHAT}, ${AT} from cleaner_link_codes c join users u on u.id = c.user_id
       where c.code_hash = ${THIRD} and c.channel = '${channel}' and c.used_by = ${FOURTH} and c.used_at = ${AT}
         and u.role = 'cleaner' and ${key.notSeen}
       on conflict(user_id, channel) do update set chat_id = excluded.chat_id, linked_at = excluded.linked_at`,
      act.chatId,
      hash,
      use,
    ),
    record,
  ]);
  return {
    fresh: freshOf(recorded),
    linked: used?.results[0]?.booking_id ?? null,
    unlinked: 0,
    cleaner: cleaner?.results[0]?.user_id ?? null,
  };
}

/** The chat a booking's messages go to in the messenger, if the guest tied one. */
export async function chatOf(env: DbEnv, messenger: GuestMessenger, bookingId: number): Promise<string | undefined> {
  const row = await env.DB.prepare(
    `select ${messenger.chatColumn} as chat from ${messenger.chats} where booking_id = ?1`,
  )
    .bind(bookingId)
    .first<{ chat: string }>();
  return row?.chat;
}

/** Unties a chat the bot can no longer write to (the guest blocked it), so nothing more is tried there. */
export async function dropChat(
  env: DbEnv,
  messenger: GuestMessenger,
  bookingId: number,
  chatId: string,
): Promise<void> {
  await env.DB.prepare(`delete from ${messenger.chats} where booking_id = ?1 and ${messenger.chatColumn} = ?2`)
    .bind(bookingId, chatId)
    .run();
}
