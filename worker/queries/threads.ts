import type { MessageStatus, MessageView, ThreadChannel, ThreadsQuery, ThreadView } from '../../schema/threads.ts';
import { THREADS_PAGE } from '../../schema/threads.ts';
import { now } from '../lib/clock.ts';
import type { DatabasePort } from '../platform/ports.ts';

type DbEnv = { DB: DatabasePort };

// The conversations with guests (docs/api.md «Conversations»). The list's figures are read from
// the messages each time, not kept beside them: a thread holds a booking's few dozen messages.

type ThreadRow = {
  id: number;
  channel: string;
  booking_id: number | null;
  cabin_id: number | null;
  guest_name: string | null;
  last_at: number;
  unread: number;
  waiting_since: number | null;
  stay_id: string | null;
  stay_start: string | null;
  stay_end: string | null;
};

/**
 * A thread's figures: its newest message, the guest's messages after the last one the owner read,
 * and the oldest of the guest's messages after the owner's last answer (an automatic message is
 * no answer). Threads with no message yet are not shown.
 */
const THREAD_SELECT = `
  select t.id, t.channel, t.booking_id, coalesce(b.cabin_id, t.cabin_id) as cabin_id, coalesce(b.name, t.guest_name) as guest_name,
    s.external_id as stay_id, s.start as stay_start, s."end" as stay_end,
    (select max(m.at) from messages m where m.thread_id = t.id) as last_at,
    (select count(*) from messages m where m.thread_id = t.id and m.direction = 'in' and m.id > t.read_through) as unread,
    (select min(m.at) from messages m where m.thread_id = t.id and m.direction = 'in' and m.id > coalesce(
      (select max(r.id) from messages r where r.thread_id = t.id and r.direction = 'out' and r.kind = 'reply'), 0)
    ) as waiting_since
  from threads t left join bookings b on b.id = t.booking_id
    left join channel_stays s on s.channel = t.channel and s.external_id = t.platform_booking_id`;

const iso = (ms: number) => new Date(ms).toISOString();

function threadView(r: ThreadRow): ThreadView {
  return {
    id: r.id,
    ...(r.booking_id !== null ? { bookingId: r.booking_id } : {}),
    ...(r.cabin_id !== null ? { cabinId: r.cabin_id } : {}),
    channel: r.channel as ThreadChannel,
    guestName: r.guest_name ?? '',
    lastAt: iso(r.last_at),
    unread: r.unread,
    ...(r.waiting_since !== null ? { waitingSince: iso(r.waiting_since) } : {}),
    ...(r.stay_id !== null && r.stay_start !== null && r.stay_end !== null
      ? { avitoBooking: { id: r.stay_id, checkIn: r.stay_start, checkOut: r.stay_end } }
      : {}),
  };
}

/** The threads, the newest message first; see ThreadsQuery for the filters. */
export async function listThreads(env: DbEnv, q: ThreadsQuery): Promise<ThreadView[]> {
  const where: string[] = ['last_at is not null'];
  const binds: unknown[] = [];
  if (q.unread) where.push('unread > 0');
  if (q.channel) {
    binds.push(q.channel);
    where.push(`channel = ?${binds.length}`);
  }
  if (q.before) {
    const cursor = await env.DB.prepare('select max(at) as at from messages where thread_id = ?1')
      .bind(q.before)
      .first<{ at: number | null }>();
    if (cursor?.at == null) return [];
    binds.push(cursor.at, q.before);
    where.push(`(last_at < ?${binds.length - 1} or (last_at = ?${binds.length - 1} and id < ?${binds.length}))`);
  }
  binds.push(q.limit ?? THREADS_PAGE.default);
  const { results } = await env.DB.prepare(
    `select * from (${THREAD_SELECT}) where ${where.join(' and ')} order by last_at desc, id desc limit ?${binds.length}`,
  )
    .bind(...binds)
    .all<ThreadRow>();
  return results.map(threadView);
}

/** One thread with its figures, or undefined; a thread with no message yet is shown too. */
export async function getThread(env: DbEnv, id: number): Promise<ThreadView | undefined> {
  const row = await env.DB.prepare(`${THREAD_SELECT} where t.id = ?1`).bind(id).first<ThreadRow>();
  if (!row) return undefined;
  return threadView({ ...row, last_at: row.last_at ?? 0 });
}

type MessageRowRaw = {
  id: number;
  direction: 'in' | 'out';
  kind: string | null;
  text: string;
  at: number;
  status: MessageStatus;
  error: string | null;
};

/**
 * The cause as the owner reads it: the outbox keeps the platform's own words for the log (an
 * English «Telegram sendMessage answered 401: Unauthorized»); those are given after a Russian one.
 */
const ownerWords = (error: string) =>
  /[а-яё]/i.test(error) ? error : `мессенджер не принял сообщение или не ответил (${error})`;

const messageView = (r: MessageRowRaw): MessageView => ({
  id: r.id,
  direction: r.direction,
  text: r.text,
  at: iso(r.at),
  status: r.status,
  ...(r.error ? { error: ownerWords(r.error) } : {}),
  ...(r.direction === 'out' && r.kind !== 'reply' ? { auto: true } : {}),
});

const MESSAGE_FIELDS = 'id, direction, kind, text, at, status, error';

/** A thread's messages, oldest first. */
export async function threadMessages(env: DbEnv, threadId: number): Promise<MessageView[]> {
  const { results } = await env.DB.prepare(`select ${MESSAGE_FIELDS} from messages where thread_id = ?1 order by id`)
    .bind(threadId)
    .all<MessageRowRaw>();
  return results.map(messageView);
}

/** The thread's copy of an outbox row (made by the outbox's trigger), as the panel shows it. */
export async function messageOfOutbox(env: DbEnv, outboxId: number): Promise<MessageView | undefined> {
  const row = await env.DB.prepare(`select ${MESSAGE_FIELDS} from messages where outbox_id = ?1`)
    .bind(outboxId)
    .first<MessageRowRaw>();
  return row ? messageView(row) : undefined;
}

/** Marks every message of the thread read, up to the newest there now; false when there is no such thread. */
export async function markThreadRead(env: DbEnv, threadId: number): Promise<boolean> {
  const { results } = await env.DB.prepare(
    `update threads set read_through = max(read_through, coalesce((select max(id) from messages where thread_id = ?1), 0))
     where id = ?1 returning id`,
  )
    .bind(threadId)
    .all<{ id: number }>();
  return results.length > 0;
}

/**
 * Where a channel's guest chats are tied to bookings: the chat of booking ?5. (The insert below
 * reads it with `where true`: SQLite would take its `on conflict` for a join's `on` without.)
 */
const CHATS = {
  telegram: 'select chat_id as recipient from guest_chats where booking_id = ?5',
  max: 'select user_id as recipient from guest_max_chats where booking_id = ?5',
} as const;

/**
 * Keeps the owner's answer in the outbox for the chat the guest tied to the thread's booking on
 * `channel` (Telegram unless said), held by the caller for `leaseMs` while it tries at once; the
 * outbox's trigger puts it in the thread. `event` names the answer: the same one again keeps
 * nothing more (`fresh` false, the row kept before). Undefined when the booking has no chat there
 * (the guest wrote «стоп»).
 */
export async function queueReply(
  env: DbEnv,
  reply: {
    bookingId: number;
    subject: string;
    text: string;
    event: string;
    kind?: 'reply' | 'auto-answer';
    channel?: 'telegram' | 'max';
  },
  leaseMs: number,
): Promise<{ id: number; recipient: string; createdAt: number; fresh: boolean } | undefined> {
  const at = now();
  const kind = reply.kind ?? 'reply';
  const channel = reply.channel ?? 'telegram';
  const kept = await env.DB.prepare(
    `insert into outbox (channel, subject, text, attempts, next_attempt_at, lease_until, created_at, booking_id, kind, recipient, event)
     select ?8, ?1, ?2, 0, ?3, ?4, ?3, ?5, ?7, g.recipient, ?6 from (${CHATS[channel]}) g where true
     on conflict do nothing returning id, recipient`,
  )
    .bind(reply.subject, reply.text, at, at + leaseMs, reply.bookingId, reply.event, kind, channel)
    .first<{ id: number; recipient: string }>();
  if (kept) return { ...kept, createdAt: at, fresh: true };
  const before = await env.DB.prepare(
    `select id, recipient, created_at from outbox
     where booking_id = ?1 and kind = ?3 and channel = ?4 and event = ?2`,
  )
    .bind(reply.bookingId, reply.event, kind, channel)
    .first<{ id: number; recipient: string; created_at: number }>();
  return before
    ? { id: before.id, recipient: before.recipient, createdAt: before.created_at, fresh: false }
    : undefined;
}
