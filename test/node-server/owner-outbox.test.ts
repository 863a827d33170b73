import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { until as untilWithin } from './until.ts';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { startServer } from './test-server.ts';

// A message to the owner is kept until sent (the outbox, worker/notify/owner.ts): not dropped after
// its tries at once fail, not lost when the server restarts in the middle of them, tried again by
// the schedule through an outage of hours, and delivered exactly once when the channel is back.

const PASSWORD = 'outbox-test-password';
const MINUTE = 60_000;

/** Telegram's Bot API on 127.0.0.1: down (502) or up, keeping what it got while up. */
let down = true;
const got: string[] = [];
const bot = createServer((req, res) => {
  let raw = '';
  req.on('data', (d: Buffer) => (raw += d));
  req.on('end', () => {
    if (down) return void res.writeHead(502, { 'content-type': 'application/json' }).end('{"ok":false}');
    got.push((JSON.parse(raw) as { text: string }).text);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true,"result":{}}');
  });
});

let dataDir: string;
let server: NodeServer | undefined;
const start = (tickMs?: number) =>
  startServer({
    dataDir,
    adminPassword: PASSWORD,
    shutdownGraceMs: 100,
    trustedProxy: true,
    bindings: {
      TELEGRAM_BOT_TOKEN: '42:outbox',
      TELEGRAM_CHAT_ID: '7',
      TELEGRAM_API_URL: `http://127.0.0.1:${(bot.address() as AddressInfo).port}`,
    },
    ...(tickMs ? { scheduleTickMs: tickMs } : {}),
  });
const outbox = () => {
  const db = new DatabaseSync(path.join(dataDir, 'kaspiy.sqlite'));
  try {
    return db
      .prepare(
        'SELECT channel, subject, attempts, sent_at AS sentAt, given_up_at AS givenUpAt, last_error AS lastError FROM outbox',
      )
      .all() as {
      channel: string;
      subject: string;
      attempts: number;
      sentAt: number | null;
      givenUpAt: number | null;
      lastError: string | null;
    }[];
  } finally {
    db.close();
  }
};

const until = <T>(what: string, read: () => T | undefined | Promise<T | undefined>, timeoutMs = 5000) =>
  untilWithin(what, read, timeoutMs);

beforeAll(async () => {
  bot.listen(0, '127.0.0.1');
  await once(bot, 'listening');
  dataDir = await mkdtemp(path.join(tmpdir(), 'kaspiy-outbox-'));
});
afterEach(() => vi.useRealTimers());
afterAll(async () => {
  await server?.close();
  bot.close();
  await rm(dataDir, { recursive: true, force: true });
});

describe("the owner's messages are kept until sent", () => {
  it("should keep a new review's notice through a restart in the middle of its tries and hours of outage, then deliver it once", async () => {
    // Only Date is faked: the server's timers and sockets run as usual, its clock can be moved.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    server = await start();
    const review = await fetch(`${server.url}/api/reviews`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-real-ip': '203.0.113.9' },
      body: JSON.stringify({
        name: 'Ольга',
        email: 'olga@example.ru',
        rating: 5,
        comment: 'Прекрасный отдых у моря',
        consent: true,
      }),
    });
    expect(review.status).toBe(201);
    // The first try fails; the server stops while it waits to try again.
    await until('the first failed try', () => (outbox()[0]?.attempts === 0 ? true : undefined));
    await server.close();
    server = undefined;
    expect(outbox()).toMatchObject([{ channel: 'telegram', sentAt: null, givenUpAt: null }]);

    // Back up, and Telegram stays down for hours: the schedule keeps trying, nothing is dropped.
    server = await start(50);
    for (let hour = 1; hour <= 6; hour++) {
      vi.setSystemTime(Date.now() + 60 * MINUTE);
      const before = outbox()[0]!.attempts;
      await until(`a try in hour ${hour}`, () => (outbox()[0]!.attempts > before ? true : undefined));
    }
    expect(outbox()).toMatchObject([{ sentAt: null, givenUpAt: null, lastError: expect.stringContaining('502') }]);
    expect(got).toEqual([]);

    down = false;
    vi.setSystemTime(Date.now() + 61 * MINUTE);
    await until('the notice delivered', () => (got.length > 0 ? true : undefined));
    await new Promise((r) => setTimeout(r, 300));
    expect(got).toHaveLength(1);
    expect(got[0]).toContain('Ольга');
    expect(outbox()[0]!.sentAt).not.toBeNull();
  }, 30_000);
});
