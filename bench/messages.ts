// «Сообщения» at scale: 2,000 threads and 50,000 messages on the self-hosted server, one owner
// asking one request at a time: the list as the tab opens it, the unread list the tab's number is
// read from every few seconds, and one long thread opened. The bench's `messages` stage
// (self-hosted), or alone with `node bench/messages.ts`, which prints p50/p95 and whether each keeps
// its budget (BUDGETS.messagesP95Ms). Its data is its own (a temporary DATA_DIR).
import { BUDGETS } from './budgets.ts';
import { serialLatency, type SerialLatency } from './latency.ts';
import { startTempServer } from './temp-server.ts';

const PASSWORD = 'bench-messages-password';
/** 1,500 bookings' Telegram/MAX threads and 500 Avito chats, 25 messages each; one in ten unread. */
export const MESSAGES_SCALE = { cabins: 150, bookingThreads: 1500, avitoChats: 500, perThread: 25 } as const;

export function messagesSeedSql(scale = MESSAGES_SCALE): string {
  const { cabins, bookingThreads, avitoChats, perThread } = scale;
  const threads = bookingThreads + avitoChats;
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  return `
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${cabins})
    INSERT INTO cabins (name, description, price_per_night) SELECT 'Домик ' || i, 'Описание', 4000 FROM n;
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${bookingThreads})
    INSERT INTO bookings (cabin_id, check_in, check_out, nights, guests, total, name, phone, email, channel, status, guest_token, created_at, updated_at)
    SELECT 1 + i % ${cabins}, date('2026-01-01', '+' || (i % 300) || ' days'), date('2026-01-01', '+' || (i % 300 + 3) || ' days'),
      3, 2, 12000, 'Гость ' || i, '+7 900 000-00-00', '', 'whatsapp', 'confirmed', lower(hex(randomblob(18))),
      '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM n;
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${bookingThreads})
    INSERT INTO threads (channel, booking_id, guest_name, read_through, created_at)
    SELECT CASE WHEN i % 3 = 0 THEN 'max' ELSE 'telegram' END, i, '', 0, ${t0} + i * 60000 FROM n;
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${avitoChats})
    INSERT INTO threads (channel, guest_name, read_through, created_at, platform_chat_id, cabin_id)
    SELECT 'avito', 'Гость Авито ' || i, 0, ${t0} + i * 60000, 'chat-' || i, 1 + i % ${cabins} FROM n;
    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${threads * perThread - 1})
    INSERT INTO messages (thread_id, channel, direction, platform_id, kind, text, status, at, sent_at)
    SELECT t.id, t.channel, CASE WHEN n.i % 2 = 0 THEN 'in' ELSE 'out' END,
      CASE WHEN n.i % 2 = 0 THEN 'p-' || n.i END, CASE WHEN n.i % 2 = 1 THEN 'reply' END,
      'Сообщение ' || n.i || ': здравствуйте, можно заехать пораньше?', 'sent',
      ${t0} + n.i * 30000, CASE WHEN n.i % 2 = 1 THEN ${t0} + n.i * 30000 END
    FROM n JOIN threads t ON t.id = 1 + n.i % ${threads};
    UPDATE threads SET read_through = (SELECT max(m.id) FROM messages m WHERE m.thread_id = threads.id) WHERE id % 10 <> 0;`;
}

export type MessagesResult = {
  scale: typeof MESSAGES_SCALE;
  messages: number;
  seedS: number;
  list: SerialLatency;
  unread: SerialLatency;
  thread: SerialLatency;
};

export async function measureMessages(
  requests = 40,
  log: (line: string) => void = console.log,
): Promise<MessagesResult> {
  const { server, close } = await startTempServer('bench-messages', { adminPassword: PASSWORD });
  try {
    const started = performance.now();
    server.storage.db.exec(messagesSeedSql());
    const seedS = (performance.now() - started) / 1000;
    const messages = (await server.storage.db.prepare('SELECT count(*) AS n FROM messages').first<number>('n')) ?? 0;
    log(
      `Messages: ${MESSAGES_SCALE.bookingThreads + MESSAGES_SCALE.avitoChats} threads, ${messages} messages seeded in ${seedS.toFixed(1)} s`,
    );
    const login = await fetch(`${server.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    if (login.status !== 200) throw new Error(`Login failed: ${login.status}`);
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    const opts = { count: requests, min: requests, budgetMs: 60_000, warmup: 3 };
    const timed = (url: string) => serialLatency(url, opts, { cookie });
    const list = await timed(`${server.url}/api/admin/threads`);
    log(`  «Сообщения», the list: p50 ${list.p50.toFixed(0)} ms, p95 ${list.p95.toFixed(0)} ms`);
    const unread = await timed(`${server.url}/api/admin/threads?unread=1&limit=100`);
    log(`  the tab's number (unread): p50 ${unread.p50.toFixed(0)} ms, p95 ${unread.p95.toFixed(0)} ms`);
    const thread = await timed(`${server.url}/api/admin/threads/10`);
    log(
      `  a thread of ${MESSAGES_SCALE.perThread} messages: p50 ${thread.p50.toFixed(0)} ms, p95 ${thread.p95.toFixed(0)} ms`,
    );
    return { scale: MESSAGES_SCALE, messages, seedS, list, unread, thread };
  } finally {
    await close();
  }
}

if (import.meta.main) {
  const r = await measureMessages();
  for (const [name, lat] of [
    ['list', r.list],
    ['unread', r.unread],
    ['thread', r.thread],
  ] as const)
    console.log(
      `${name} p95: ${lat.p95.toFixed(0)} ms (budget ${BUDGETS.messagesP95Ms} ms): ${lat.p95 <= BUDGETS.messagesP95Ms ? 'kept' : 'MISSED'}`,
    );
}
