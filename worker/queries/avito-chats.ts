import { eq, sql } from 'drizzle-orm';
import { avitoAccount } from '../../schema/tables.ts';
import { now } from '../lib/clock.ts';
import { getDb } from '../lib/db.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };

// Avito's chats in «Сообщения» (worker/channels/avito-chats.ts): one thread per Avito chat, found
// by the chat's id (threads.platform_chat_id), and each guest's message stored once by Avito's id.

/** A chat as it is kept: its cabin (by the listing), the guest's name and Avito's booking it is about. */
export type KeptChat = {
  chatId: string;
  cabinId: number | null;
  guestName: string;
  platformBookingId: string | null;
  /** The chat's `updated` as Avito's list gave it (s); null from the webhook (the list reads it again). */
  updated: number | null;
};
export type IncomingMessage = { id: string; text: string; at: number };

/**
 * Keeps the chat's thread (made the first time, else brought up to date where the new facts say
 * more) and the guest's messages not kept before, in one batch: a message delivered twice (by the
 * webhook and by the list, or the webhook repeating) is kept once. Answers the thread and the
 * messages that are new.
 */
export async function keepAvitoChat(
  env: DbEnv,
  chat: KeptChat,
  messages: IncomingMessage[],
): Promise<{ threadId: number | undefined; fresh: IncomingMessage[] }> {
  const at = now();
  const thread = env.DB.prepare(
    `insert into threads (channel, guest_name, created_at, platform_chat_id, cabin_id, platform_booking_id, chat_updated)
     values ('avito', ?1, ?2, ?3, ?4, ?5, ?6)
     on conflict (channel, platform_chat_id) do update set
       guest_name = case when excluded.guest_name <> '' then excluded.guest_name else threads.guest_name end,
       cabin_id = coalesce(excluded.cabin_id, threads.cabin_id),
       platform_booking_id = coalesce(excluded.platform_booking_id, threads.platform_booking_id),
       chat_updated = max(coalesce(threads.chat_updated, 0), coalesce(excluded.chat_updated, 0))
     returning id`,
  ).bind(chat.guestName, at, chat.chatId, chat.cabinId, chat.platformBookingId, chat.updated);
  const inserts = messages.map((m) =>
    env.DB.prepare(
      `insert into messages (thread_id, channel, direction, platform_id, text, status, at)
       select id, 'avito', 'in', ?2, ?3, 'received', ?4 from threads where channel = 'avito' and platform_chat_id = ?1
       on conflict do nothing returning id`,
    ).bind(chat.chatId, m.id, m.text, m.at),
  );
  const [kept, ...stored] = await env.DB.batch<{ id: number }>([thread, ...inserts]);
  return {
    threadId: kept?.results[0]?.id,
    fresh: messages.filter((_, i) => (stored[i]?.results.length ?? 0) > 0),
  };
}

/**
 * Each chat's last change as kept and its cabin, for the chats of a list: those that changed since
 * are read again; one kept before its listing was linked to a cabin gets the cabin.
 */
export async function keptChats(
  env: DbEnv,
  chatIds: string[],
): Promise<Map<string, { updated: number; cabinId: number | null }>> {
  const out = new Map<string, { updated: number; cabinId: number | null }>();
  if (chatIds.length === 0) return out;
  const { results } = await env.DB.prepare(
    `select platform_chat_id as chat, coalesce(chat_updated, 0) as updated, cabin_id from threads
     where channel = 'avito' and platform_chat_id in (select value from json_each(?1))`,
  )
    .bind(JSON.stringify(chatIds))
    .all<{ chat: string; updated: number; cabin_id: number | null }>();
  for (const r of results) out.set(r.chat, { updated: r.updated, cabinId: r.cabin_id });
  return out;
}

/** Which of these Avito messages are kept already. */
export async function keptMessageIds(env: DbEnv, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const { results } = await env.DB.prepare(
    "select platform_id as id from messages where channel = 'avito' and platform_id in (select value from json_each(?1))",
  )
    .bind(JSON.stringify(ids))
    .all<{ id: string }>();
  return new Set(results.map((r) => r.id));
}

/** The linked listings: listing → cabin. */
export async function linkedListings(env: DbEnv): Promise<Map<number, number>> {
  const { results } = await env.DB.prepare('select avito_item_id as item, cabin_id from channel_links').all<{
    item: number;
    cabin_id: number;
  }>();
  return new Map(results.map((r) => [r.item, r.cabin_id]));
}

/** The cabin whose listing this is, if one is linked to it. */
export async function cabinOfListing(env: DbEnv, itemId: number | undefined): Promise<number | null> {
  if (itemId === undefined) return null;
  const row = await env.DB.prepare('select cabin_id from channel_links where avito_item_id = ?1')
    .bind(itemId)
    .first<{ cabin_id: number }>();
  return row?.cabin_id ?? null;
}

const sameName = (a: string, b: string) =>
  a.trim().toLocaleLowerCase('ru').replace(/\s+/g, ' ') === b.trim().toLocaleLowerCase('ru').replace(/\s+/g, ' ');

/**
 * The Avito booking of the cabin that the chat is about: one made by the same guest (by the name
 * Avito shows in both) that has not ended by `day`, the nearest first. Null when there is none.
 */
export async function avitoBookingOfChat(
  env: DbEnv,
  cabinId: number | null,
  guestName: string,
  day: string,
): Promise<string | null> {
  if (cabinId === null || !guestName.trim()) return null;
  const { results } = await env.DB.prepare(
    `select external_id, guest_name from channel_stays
     where channel = 'avito' and cabin_id = ?1 and "end" > ?2 and guest_name <> '' order by start, id`,
  )
    .bind(cabinId, day)
    .all<{ external_id: string; guest_name: string }>();
  return results.find((r) => sameName(r.guest_name, guestName))?.external_id ?? null;
}

/** The Avito chat of a thread, or undefined when the thread is not an Avito chat. */
export async function avitoChatOfThread(env: DbEnv, threadId: number): Promise<string | undefined> {
  const row = await env.DB.prepare(
    "select platform_chat_id as chat from threads where id = ?1 and channel = 'avito' and platform_chat_id is not null",
  )
    .bind(threadId)
    .first<{ chat: string }>();
  return row?.chat;
}

/**
 * Keeps an answer to an Avito chat in the outbox (`recipient` the chat's id), held by the caller
 * for `leaseMs` while it tries at once; the outbox's trigger puts it in the chat's thread. `event`
 * names the answer: the same one again keeps nothing more (`fresh` false, the row kept before).
 */
export async function queueAvitoReply(
  env: DbEnv,
  reply: { chatId: string; subject: string; text: string; event: string; kind: 'reply' | 'auto-answer' },
  leaseMs: number,
): Promise<{ id: number; createdAt: number; fresh: boolean } | undefined> {
  const at = now();
  const kept = await env.DB.prepare(
    `insert into outbox (channel, subject, text, attempts, next_attempt_at, lease_until, created_at, kind, recipient, event)
     select 'avito', ?1, ?2, 0, ?3, ?4, ?3, ?5, ?6, ?7
     where exists (select 1 from threads where channel = 'avito' and platform_chat_id = ?6)
       and not exists (select 1 from outbox where channel = 'avito' and recipient = ?6 and kind = ?5 and event = ?7)
     returning id`,
  )
    .bind(reply.subject, reply.text, at, at + leaseMs, reply.kind, reply.chatId, reply.event)
    .first<{ id: number }>();
  if (kept) return { id: kept.id, createdAt: at, fresh: true };
  const before = await env.DB.prepare(
    "select id, created_at from outbox where channel = 'avito' and recipient = ?1 and kind = ?2 and event = ?3",
  )
    .bind(reply.chatId, reply.kind, reply.event)
    .first<{ id: number; created_at: number }>();
  return before ? { id: before.id, createdAt: before.created_at, fresh: false } : undefined;
}

export type ChatsState = {
  refused: string | null;
  error: string | null;
  failures: number;
  retryAt: number | null;
  hookSecret: string | null;
  hookUrl: string | null;
};

export async function chatsState(env: DbEnv): Promise<ChatsState | undefined> {
  return getDb(env)
    .select({
      refused: avitoAccount.chatsRefused,
      error: avitoAccount.chatsError,
      failures: avitoAccount.chatsFailures,
      retryAt: avitoAccount.chatsRetryAt,
      hookSecret: avitoAccount.hookSecret,
      hookUrl: avitoAccount.hookUrl,
    })
    .from(avitoAccount)
    .where(eq(avitoAccount.id, 1))
    .get();
}

/** The chats worked: no refusal, no failure. */
export async function chatsWorked(env: DbEnv) {
  await getDb(env)
    .update(avitoAccount)
    .set({ chatsRefused: null, chatsError: null, chatsFailures: 0, chatsRetryAt: null })
    .where(eq(avitoAccount.id, 1));
}

/** Avito refuses the Messenger API (its words kept), or the chats failed (the cause and when to try again). */
export async function chatsFailed(env: DbEnv, f: { refused?: string; error?: string; retryAt: number }) {
  await getDb(env)
    .update(avitoAccount)
    .set({
      ...(f.refused !== undefined ? { chatsRefused: f.refused, chatsError: null } : { chatsError: f.error ?? null }),
      chatsFailures: sql`${avitoAccount.chatsFailures} + 1`,
      chatsRetryAt: f.retryAt,
    })
    .where(eq(avitoAccount.id, 1));
}

/** The webhook's path secret (made once and kept), and the address Avito took. */
export async function setHook(env: DbEnv, h: { secret?: string; url?: string | null }) {
  await getDb(env)
    .update(avitoAccount)
    .set({
      ...(h.secret !== undefined ? { hookSecret: h.secret } : {}),
      ...(h.url !== undefined ? { hookUrl: h.url } : {}),
    })
    .where(eq(avitoAccount.id, 1));
}

/**
 * Avito chats with no message since `cutoff` (ms; the booking requests' retention, 3 years by
 * default) go with their messages: a guest's words are personal data, as a request's name is.
 */
export async function forgetOldAvitoChats(env: DbEnv, cutoff: number): Promise<number> {
  const { results } = await env.DB.prepare(
    `delete from threads where channel = 'avito' and booking_id is null
       and coalesce((select max(m.at) from messages m where m.thread_id = threads.id), created_at) < ?1
     returning id`,
  )
    .bind(cutoff)
    .all<{ id: number }>();
  return results.length;
}
