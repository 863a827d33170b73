import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../schema/messages.ts';
import { TELEGRAM_REPLIES } from '../../schema/telegram.ts';
import type { ThreadAnswer, ThreadView } from '../../schema/threads.ts';
import type { Bindings } from '../../worker/env.ts';
import { takeUpdate } from '../../worker/notify/guest-telegram.ts';
import { forgetOldBookings } from '../../worker/queries/bookings.ts';
import { ownerAlertOfGuestWords } from '../../worker/notify/guest-wrote.ts';
import { readTelegramBot, saveTelegramBot, takeTelegramUpdate } from '../../worker/queries/telegram-bot.ts';
import { runSchedule } from '../../worker/scheduled.ts';
import { callWith, expectError, expectNoChange, jsonOf, login, resetDataWithAdmin, seedUser } from './helpers.ts';
import { deliverer, guestWithChatVia, madeUp, message, saidTo, telegramApi } from './telegram-stand-in.ts';

/**
 * «Сообщения» (docs/api.md «Conversations»), on both runtimes: what a guest writes to the guests'
 * Telegram bot lands once in their booking's thread, the booking's automatic messages show there
 * too, and the owner's answer goes to the chat through the outbox. Telegram is the stand-in of the
 * global setup (stand-ins/telegram-api.ts).
 */
const PUBLIC: Partial<Bindings> = { TELEGRAM_API_URL: telegramApi, SITE_URL: 'https://kaspiy.example' };
const call = callWith(PUBLIC);
const json = jsonOf;

const made = madeUp({ updates: 900_000, chats: 8_000_000_000 });
const { nextUpdateId } = made;
const deliver = deliverer(call);

const guestWithChat = guestWithChatVia(call, made);

const threads = async (cookie: string, query = '') =>
  json<ThreadView[]>(await call('GET', `/api/admin/threads${query}`, { cookie }), 200);
const thread = async (cookie: string, id: number) =>
  json<ThreadAnswer>(await call('GET', `/api/admin/threads/${id}`, { cookie }), 200);
const messageCount = async () => (await env.DB.prepare('SELECT count(*) AS n FROM messages').first<{ n: number }>())!.n;

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

describe('a guest writes to the bot', () => {
  it('should put the text in the booking’s thread, unread and waiting, with no automatic answer in the chat', async () => {
    const cookie = await login();
    const { token, booking, cabin, chat } = await guestWithChat(cookie);
    expect(await threads(cookie)).toEqual([]);
    expect((await deliver(token, message(nextUpdateId(), chat, 'Здравствуйте! Можно заехать в 11:00?'))).status).toBe(
      200,
    );
    const [listed, ...more] = await threads(cookie);
    expect(more).toEqual([]);
    expect(listed).toMatchObject({
      bookingId: booking,
      cabinId: cabin,
      channel: 'telegram',
      guestName: 'Мадина Гасанова',
      unread: 1,
      waitingSince: listed!.lastAt,
    });
    const { thread: one, messages } = await thread(cookie, listed!.id);
    expect(one).toEqual(listed);
    expect(messages).toMatchObject([
      { direction: 'in', text: 'Здравствуйте! Можно заехать в 11:00?', status: 'received' },
    ]);
    // Only «Готово» for the /start: the guest's words went to the owner, not to an automatic answer.
    expect(await saidTo(chat)).toEqual([TELEGRAM_REPLIES.linked]);
  });

  it('should alert the owner once by their channel, with the guest’s words and where to answer', async () => {
    const OWNER_CHAT = String(5_000_000 + Math.floor(Math.random() * 1_000_000));
    const alertingCall = callWith({
      ...PUBLIC,
      TELEGRAM_BOT_TOKEN: '100200:owner-alerts',
      TELEGRAM_CHAT_ID: OWNER_CHAT,
    });
    const alerting = { guestWithChat: guestWithChatVia(alertingCall, made), deliver: deliverer(alertingCall) };
    const cookie = await login();
    const { token, booking, chat } = await alerting.guestWithChat(cookie);
    const update = message(nextUpdateId(), chat, 'Можно приехать с собакой?');
    // Telegram delivering the same update three times: one message, one alert.
    await Promise.all([1, 2, 3].map(() => alerting.deliver(token, update)));
    const toOwner = async () => (await saidTo(Number(OWNER_CHAT))).filter((t) => t.includes('пишет в'));
    await expect.poll(toOwner, { timeout: 5_000 }).toHaveLength(1);
    const [alert] = await toOwner();
    expect(alert).toContain(`Сообщение от гостя: Мадина Гасанова, бронирование №${booking}`);
    expect(alert).toContain('Мадина Гасанова пишет в Telegram:\n\nМожно приехать с собакой?');
    expect(alert).toContain('Ответить: https://kaspiy.example → админ-панель → «Сообщения»');
    // The guest's /start tied the chat: that is no message, and brought no alert.
    await new Promise((r) => setTimeout(r, 300));
    expect(await toOwner()).toHaveLength(1);
  });

  it('should keep the owner’s alert with the guest’s words, so a server stopped right after storing them still alerts the owner', async () => {
    const OWNER_CHAT = 5_000_000 + Math.floor(Math.random() * 1_000_000);
    const owner: Partial<Bindings> = {
      ...PUBLIC,
      TELEGRAM_BOT_TOKEN: '100200:owner-alerts',
      TELEGRAM_CHAT_ID: String(OWNER_CHAT),
    };
    const alertingCall = callWith(owner);
    const cookie = await login();
    const { booking, chat } = await guestWithChatVia(alertingCall, made)(cookie);
    const alertEnv = { ...env, ...owner } as Bindings;
    const bot = (await readTelegramBot(env))!;
    const updateId = nextUpdateId();
    const said = { chatId: String(chat), messageId: String(updateId), text: 'Можно поздний выезд?' };
    // The batch that stores the words, and then nothing: the server is stopped before it tries the alert.
    const alert = ownerAlertOfGuestWords(alertEnv, 'Telegram', said.text);
    const taken = await takeTelegramUpdate(env, bot.id, updateId, { said }, alert.alertOf);
    expect(taken).toMatchObject({ fresh: true, storedFor: booking, alerted: [{ channel: 'telegram' }] });
    // Taken again (Telegram's next delivery after the restart): no second message, no second alert.
    const again = ownerAlertOfGuestWords(alertEnv, 'Telegram', said.text);
    expect(await takeTelegramUpdate(env, bot.id, updateId, { said }, again.alertOf)).toMatchObject({ fresh: false });
    expect(await messageCount()).toBe(1);
    const kept = await env.DB.prepare(
      "SELECT count(*) AS n FROM outbox WHERE booking_id IS NULL AND channel = 'telegram' AND subject LIKE 'Сообщение от гостя%' AND sent_at IS NULL",
    ).first<{ n: number }>();
    expect(kept!.n).toBe(1);
    // Once the stopped sender's hold on it has run out, the schedule's drain sends it.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 3 * 60_000);
    await runSchedule(alertEnv, { push: true, pull: false, upkeep: false, messengers: false });
    const toOwner = async () => (await saidTo(OWNER_CHAT)).filter((t) => t.includes('пишет в'));
    await expect.poll(toOwner, { timeout: 5_000 }).toHaveLength(1);
    expect((await toOwner())[0]).toContain('Мадина Гасанова пишет в Telegram:\n\nМожно поздний выезд?');
  });

  it('should store an update delivered many times at once, and by the webhook and polling together, once', async () => {
    const cookie = await login();
    const { token, chat } = await guestWithChat(cookie);
    const update = message(nextUpdateId(), chat, 'Сколько стоит баня?');
    const answers = await Promise.all(Array.from({ length: 12 }, () => deliver(token, update)));
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(200));
    // The schedule's poll taking the same update while Telegram posts it again.
    const bot = (await readTelegramBot(env))!;
    await Promise.all([
      takeUpdate({ ...env, ...PUBLIC } as Bindings, bot, update),
      takeUpdate({ ...env, ...PUBLIC } as Bindings, bot, update),
      deliver(token, update),
    ]);
    expect(await messageCount()).toBe(1);
    const [listed] = await threads(cookie);
    expect(listed!.unread).toBe(1);
    expect(await saidTo(chat)).toEqual([TELEGRAM_REPLIES.linked]);
  });

  it('should show the booking’s automatic messages to the chat in the same thread', async () => {
    const cookie = await login();
    const { token, booking, chat } = await guestWithChat(cookie);
    await deliver(token, message(nextUpdateId(), chat, 'Жду подтверждения'));
    await json(await call('PUT', `/api/admin/bookings/${booking}`, { cookie, body: { status: 'confirmed' } }), 200);
    const [listed] = await threads(cookie);
    const { messages } = await thread(cookie, listed!.id);
    expect(messages).toMatchObject([
      { direction: 'in', text: 'Жду подтверждения', status: 'received' },
      { direction: 'out', status: 'sent', auto: true, text: expect.stringContaining('Бронирование подтверждено') },
    ]);
    // An automatic message is no answer: the guest still waits.
    expect(listed!.waitingSince).toBeDefined();
  });
});

describe('the owner answers', () => {
  it('should queue the answer (202), send it to the chat once, and show it sent; the guest then waits no more', async () => {
    const cookie = await login();
    const { token, chat } = await guestWithChat(cookie);
    await deliver(token, message(nextUpdateId(), chat, 'Можно с собакой?'));
    const [listed] = await threads(cookie);
    const queued = await json(
      await call('POST', `/api/admin/threads/${listed!.id}/messages`, {
        cookie,
        body: { text: '  Да, с собакой можно.  ', key: 'answer-0001' },
      }),
      202,
    );
    expect(queued).toMatchObject({ direction: 'out', text: 'Да, с собакой можно.', status: 'queued' });
    expect((await saidTo(chat)).at(-1)).toBe('Да, с собакой можно.');
    // The same answer again (a retry after a lost answer) queues nothing more.
    await json(
      await call('POST', `/api/admin/threads/${listed!.id}/messages`, {
        cookie,
        body: { text: 'Да, с собакой можно.', key: 'answer-0001' },
      }),
      202,
    );
    const { thread: after, messages } = await thread(cookie, listed!.id);
    expect(messages.map((m) => [m.direction, m.status, m.text])).toEqual([
      ['in', 'received', 'Можно с собакой?'],
      ['out', 'sent', 'Да, с собакой можно.'],
    ]);
    expect(messages[1]!.auto).toBeUndefined();
    expect(after.waitingSince).toBeUndefined();
    expect((await saidTo(chat)).filter((t) => t === 'Да, с собакой можно.')).toHaveLength(1);
    // Still unread until the owner opens it.
    expect(after.unread).toBe(1);
    expect(await json(await call('POST', `/api/admin/threads/${listed!.id}/read`, { cookie }), 200)).toEqual({
      unread: 0,
    });
    expect(await threads(cookie, '?unread=1')).toEqual([]);
    expect((await threads(cookie))[0]!.unread).toBe(0);
  });

  it('should keep an answer Telegram refused as queued with the cause, and not lose it', async () => {
    const cookie = await login();
    const { token, chat } = await guestWithChat(cookie);
    await deliver(token, message(nextUpdateId(), chat, 'Ау?'));
    const [listed] = await threads(cookie);
    // Telegram refusing the bot from now on (a revoked token).
    const bot = (await readTelegramBot(env))!;
    await saveTelegramBot(env, { ...bot, token: `${bot.id}:rejected-${crypto.randomUUID()}` });
    await json(
      await call('POST', `/api/admin/threads/${listed!.id}/messages`, { cookie, body: { text: 'Мы здесь' } }),
      202,
    );
    const { messages } = await thread(cookie, listed!.id);
    expect(messages.at(-1)).toMatchObject({ direction: 'out', text: 'Мы здесь', status: 'queued' });
    expect(messages.at(-1)!.error).toMatch(/^мессенджер не принял сообщение или не ответил \(.*401/);
    const row = await env.DB.prepare(
      "SELECT sent_at, next_attempt_at, given_up_at FROM outbox WHERE kind = 'reply' AND channel = 'telegram'",
    ).first<{ sent_at: number | null; next_attempt_at: number; given_up_at: number | null }>();
    expect(row).toMatchObject({ sent_at: null, given_up_at: null });
    expect(row!.next_attempt_at).toBeGreaterThan(Date.now());
  });

  it('should refuse bad input with a Russian 400 and change nothing', async () => {
    const cookie = await login();
    const { token, chat } = await guestWithChat(cookie);
    await deliver(token, message(nextUpdateId(), chat, 'Вопрос'));
    const [listed] = await threads(cookie);
    const path = `/api/admin/threads/${listed!.id}/messages`;
    await expectNoChange(async () => {
      await expectError(await call('POST', path, { cookie, body: { text: '   ' } }), 400, MSG.replyRequired);
      await expectError(await call('POST', path, { cookie, body: {} }), 400, MSG.replyRequired);
      await expectError(await call('POST', path, { cookie, body: { text: 'я'.repeat(4097) } }), 400, MSG.replyTooLong);
      await expectError(await call('POST', path, { cookie, body: { text: 'Да', extra: 1 } }), 400);
      await expectError(await call('POST', path, { cookie, body: { text: 'Да', key: 'no spaces!' } }), 400);
      await expectError(await call('POST', '/api/admin/threads/99999/messages', { cookie, body: { text: 'Да' } }), 404);
      await expectError(await call('POST', '/api/admin/threads/99999/read', { cookie }), 404, MSG.threadNotFound);
      await expectError(await call('GET', '/api/admin/threads/99999', { cookie }), 404, MSG.threadNotFound);
      await expectError(await call('GET', '/api/admin/threads?channel=fax', { cookie }), 400);
      await expectError(await call('GET', '/api/admin/threads?limit=1000', { cookie }), 400);
      await expectError(await call('GET', '/api/admin/threads?before=yesterday', { cookie }), 400);
      await expectError(await call('GET', '/api/admin/threads?unread=maybe', { cookie }), 400);
      await expectError(await call('POST', path, { body: { text: 'Да' } }), 401);
      await expectError(await call('GET', '/api/admin/threads'), 401);
    });
  });

  it('should refuse an answer with 409 once the guest wrote «стоп», keeping the thread', async () => {
    const cookie = await login();
    const { token, chat } = await guestWithChat(cookie);
    await deliver(token, message(nextUpdateId(), chat, 'Спасибо'));
    await deliver(token, message(nextUpdateId(), chat, 'стоп'));
    const [listed] = await threads(cookie);
    await expectNoChange(async () =>
      expectError(
        await call('POST', `/api/admin/threads/${listed!.id}/messages`, { cookie, body: { text: 'Пожалуйста' } }),
        409,
        MSG.replyChatGone,
      ),
    );
    expect((await thread(cookie, listed!.id)).messages).toHaveLength(1);
  });

  it('should let a manager read and answer', async () => {
    const owner = await login();
    const { token, chat } = await guestWithChat(owner);
    await deliver(token, message(nextUpdateId(), chat, 'Есть парковка?'));
    await seedUser('manager', 'manager-password-1');
    const cookie = await login({ username: 'manager', password: 'manager-password-1' });
    const [listed] = await threads(cookie);
    await thread(cookie, listed!.id);
    await json(
      await call('POST', `/api/admin/threads/${listed!.id}/messages`, { cookie, body: { text: 'Есть, у ворот' } }),
      202,
    );
    await json(await call('POST', `/api/admin/threads/${listed!.id}/read`, { cookie }), 200);
    expect((await saidTo(chat)).at(-1)).toBe('Есть, у ворот');
  });
});

describe('the list of threads', () => {
  it('should put the newest first, filter by channel and unread, and page after the last thread shown', async () => {
    const cookie = await login();
    const first = await guestWithChat(cookie, 'Первый Гость');
    await deliver(first.token, message(nextUpdateId(), first.chat, 'Раз'));
    await new Promise((r) => setTimeout(r, 5));
    const second = await guestWithChat(cookie, 'Второй Гость');
    await deliver(second.token, message(nextUpdateId(), second.chat, 'Два'));
    const all = await threads(cookie);
    expect(all.map((t) => t.guestName)).toEqual(['Второй Гость', 'Первый Гость']);
    expect(await threads(cookie, '?channel=max')).toEqual([]);
    expect((await threads(cookie, '?channel=telegram&limit=1')).map((t) => t.guestName)).toEqual(['Второй Гость']);
    expect((await threads(cookie, `?before=${all[0]!.id}&limit=1`)).map((t) => t.guestName)).toEqual(['Первый Гость']);
    await json(await call('POST', `/api/admin/threads/${all[0]!.id}/read`, { cookie }), 200);
    expect((await threads(cookie, '?unread=1')).map((t) => t.guestName)).toEqual(['Первый Гость']);
  });
});

describe('a booking’s personal data erased', () => {
  it('should take its conversation with it', async () => {
    const cookie = await login();
    const { token, booking, chat } = await guestWithChat(cookie);
    await deliver(token, message(nextUpdateId(), chat, 'Мой номер +7 900 123-45-67'));
    expect(await messageCount()).toBe(1);
    await env.DB.prepare(
      "UPDATE bookings SET created_at = '2020-01-01T00:00:00.000Z', check_in = '2020-01-10', check_out = '2020-01-12' WHERE id = ?",
    )
      .bind(booking)
      .run();
    expect(await forgetOldBookings(env, '2021-01-01T00:00:00.000Z', '2021-01-01')).toBe(1);
    expect(await messageCount()).toBe(0);
    expect(await threads(cookie)).toEqual([]);
  });
});
