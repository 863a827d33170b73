import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import type { ChannelsAnswer } from '../../schema/channels.ts';
import type { ThreadAnswer, ThreadView } from '../../schema/threads.ts';
import { MESSENGER_REFUSAL, type StandInChat, type StandInMessage } from '../../stand-ins/avito-api.ts';
import type { Bindings } from '../../worker/env.ts';
import { runSchedule } from '../../worker/scheduled.ts';
import { callWith, expectError, expectNoChange, jsonOf, login, resetDataWithAdmin, seedCabin } from './helpers.ts';
import { saidTo } from './telegram-stand-in.ts';

/**
 * Avito's chats in «Сообщения» (docs/api.md «Conversations»), on both runtimes: a guest's message in
 * a chat about the owner's listing is read by the schedule and by Avito's webhook, kept once by
 * Avito's id in the chat's thread with the listing's cabin and the guest's Avito booking; the
 * owner's answer and «прочитано» go back to Avito; a plan without the Messenger API is shown in
 * Avito's words while the calendar keeps syncing. Avito is the stand-in of the global setup
 * (stand-ins/avito-api.ts), read and driven through its /_control.
 */
const avito = inject('avito');
const SITE = 'https://kaspiy.example';
const PUBLIC: Partial<Bindings> = { AVITO_API_URL: avito.apiUrl, SITE_URL: SITE };
const call = callWith(PUBLIC);
const json = jsonOf;

const control = async <T = unknown>(path: string, method = 'GET', body?: unknown): Promise<T> => {
  const res = await fetch(`${avito.controlUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${path}`).toBeLessThan(300);
  return (await res.json()) as T;
};

type Account = { clientId: string; clientSecret: string; userId: number; items: number[] };
/** An Avito account of this test's own at the stand-in (ids from this file's base, 9.5e9), with one listing. */
async function newAccount(): Promise<Account> {
  const n = Math.floor(Math.random() * 1e8) * 2;
  const account = {
    clientId: `chats-${crypto.randomUUID()}`,
    clientSecret: `secret-${crypto.randomUUID()}`,
    userId: 9.5e9 + n,
    items: [9.5e9 + n + 1],
  };
  await control('/clients', 'POST', account);
  return account;
}

const day = (n: number) => addDays(todayInMoscow(), n);
const schedule = (bindings: Partial<Bindings> = {}) =>
  runSchedule({ ...env, ...bindings } as unknown as Bindings, { push: true, pull: false, upkeep: false });

/** The owner connects Avito and links a cabin to the listing, as «Площадки» does. */
async function connected(cookie: string, bindings: Partial<Bindings> = PUBLIC) {
  const a = await newAccount();
  const cabin = await seedCabin({ name: 'Домик у моря', pricePerNight: 5000 });
  await json(
    await call('PUT', '/api/admin/channels/avito', {
      cookie,
      body: { clientId: a.clientId, clientSecret: a.clientSecret, userId: a.userId },
      bindings,
    }),
    200,
  );
  await json(
    await call('PUT', `/api/admin/cabins/${cabin.id}/channels`, {
      cookie,
      body: { avitoItemId: a.items[0] },
      bindings,
    }),
    200,
  );
  return { a, cabin: cabin.id };
}

const newChat = (a: Account, guestName = 'Ирина Соколова') =>
  control<StandInChat>('/chats', 'POST', { userId: a.userId, itemId: a.items[0], guestName });
const write = (chatId: string, text: string, o: { system?: boolean } = {}) =>
  control<{ message: StandInMessage; hook: unknown }>(`/chats/${encodeURIComponent(chatId)}/messages`, 'POST', {
    text,
    ...o,
  });
const chatAt = (chatId: string) =>
  control<{ sent: { text: string }[]; reads: number; messages: StandInMessage[] }>(
    `/chats/${encodeURIComponent(chatId)}`,
  );
/** The path of the webhook this site gave Avito for the account. */
async function hookPath(a: Account): Promise<string> {
  const [url, ...more] = await control<string[]>(`/webhooks?userId=${a.userId}`);
  expect(more).toEqual([]);
  expect(url).toMatch(new RegExp(`^${SITE}/api/hooks/avito/[0-9a-f]{48}$`));
  return new URL(url!).pathname;
}

const threads = async (cookie: string) =>
  json<ThreadView[]>(await call('GET', '/api/admin/threads?channel=avito', { cookie }), 200);
const thread = async (cookie: string, id: number) =>
  json<ThreadAnswer>(await call('GET', `/api/admin/threads/${id}`, { cookie }), 200);
const chatsStatus = async (cookie: string) =>
  (await json<ChannelsAnswer>(await call('GET', '/api/admin/channels', { cookie }), 200)).avito.chats;

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

describe('a guest writes in an Avito chat', () => {
  it('should show the chat once in «Сообщения», with its cabin and the guest’s Avito booking, however often it is read', async () => {
    const cookie = await login();
    const { a, cabin } = await connected(cookie);
    const booking = await control<{ avito_booking_id: number }>(`/items/${a.items[0]}/bookings`, 'POST', {
      check_in: day(10),
      check_out: day(13),
      contact: { name: 'Ирина Соколова' },
    });
    await json(await call('POST', '/api/admin/channels/sync', { cookie }), 200);
    const chat = await newChat(a);
    await write(chat.id, 'Здравствуйте! Можно заехать пораньше?');
    await schedule();
    await schedule();
    const [listed, ...more] = await threads(cookie);
    expect(more).toEqual([]);
    expect(listed).toMatchObject({
      channel: 'avito',
      cabinId: cabin,
      guestName: 'Ирина Соколова',
      unread: 1,
      waitingSince: listed!.lastAt,
      avitoBooking: { id: String(booking.avito_booking_id), checkIn: day(10), checkOut: day(13) },
    });
    expect(listed!.bookingId).toBeUndefined();
    const { messages } = await thread(cookie, listed!.id);
    expect(messages).toMatchObject([
      { direction: 'in', text: 'Здравствуйте! Можно заехать пораньше?', status: 'received' },
    ]);
  });

  it('should keep a message Avito’s webhook posts before answering 200, once however often it is posted, and once more when the schedule reads it', async () => {
    const cookie = await login();
    const { a, cabin } = await connected(cookie);
    const path = await hookPath(a);
    const chat = await newChat(a, 'Олег');
    const { hook } = await write(chat.id, 'Есть ли мангал?');
    for (const _ of [1, 2, 3]) expect(await json(await call('POST', path, { body: hook }), 200)).toEqual({ ok: true });
    const [listed, ...more] = await threads(cookie);
    expect(more).toEqual([]);
    // The guest's name is read from the chat after the webhook's answer.
    expect(listed).toMatchObject({ channel: 'avito', cabinId: cabin, guestName: 'Олег', unread: 1 });
    await schedule();
    const { messages } = await thread(cookie, listed!.id);
    expect(messages.map((m) => m.text)).toEqual(['Есть ли мангал?']);
  });

  it('should keep neither Avito’s own messages nor the owner’s answer as the guest’s', async () => {
    const cookie = await login();
    const { a } = await connected(cookie);
    const chat = await newChat(a);
    await write(chat.id, 'Бронирование подтверждено', { system: true });
    await write(chat.id, 'Спасибо!');
    await schedule();
    const [listed] = await threads(cookie);
    await json(
      await call('POST', `/api/admin/threads/${listed!.id}/messages`, { cookie, body: { text: 'Ждём вас!' } }),
      202,
    );
    await schedule();
    const { messages } = await thread(cookie, listed!.id);
    expect(messages.map((m) => [m.direction, m.text])).toEqual([
      ['in', 'Спасибо!'],
      ['out', 'Ждём вас!'],
    ]);
  });

  it('should answer a path that is not this site’s webhook with 404 and change nothing', async () => {
    const cookie = await login();
    const { a } = await connected(cookie);
    const path = await hookPath(a);
    const chat = await newChat(a);
    const { hook } = await write(chat.id, 'Подделка');
    const forged = `/api/hooks/avito/${'0'.repeat(48)}`;
    await expectNoChange(async () => {
      await expectError(await call('POST', forged, { body: hook }), 404);
      await expectError(await call('POST', path.slice(0, -1), { body: hook }), 404);
    });
    // Avito disconnected: its old path is nobody's.
    await json(await call('DELETE', '/api/admin/channels/avito', { cookie }), 200);
    await expectNoChange(async () => expectError(await call('POST', path, { body: hook }), 404));
  });

  it('should alert the owner once, and answer outside the owner’s hours with the automatic answer, once', async () => {
    const OWNER_CHAT = String(1_200_000 + Math.floor(Math.random() * 100_000));
    const alerting: Partial<Bindings> = {
      ...PUBLIC,
      TELEGRAM_BOT_TOKEN: '100200:owner-alerts',
      TELEGRAM_CHAT_ID: OWNER_CHAT,
    };
    const cookie = await login();
    const { a } = await connected(cookie, alerting);
    // The owner's hours end now: the next two hours are «off».
    const moscow = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Moscow',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    const at = (ms: number) => moscow.format(new Date(ms));
    await json(
      await call('PUT', '/api/admin/reply-templates', {
        cookie,
        body: {
          templates: [],
          autoAnswer: {
            enabled: true,
            from: at(Date.now() - 60 * 60_000),
            to: at(Date.now() + 60 * 60_000),
            body: 'Ответим утром.',
          },
        },
      }),
      200,
    );
    const path = await hookPath(a);
    const chat = await newChat(a, 'Олег');
    const first = await write(chat.id, 'Вы тут?');
    await Promise.all([1, 2].map(() => call('POST', path, { body: first.hook, bindings: alerting })));
    await schedule(alerting);
    const second = await write(chat.id, 'Алло?');
    await call('POST', path, { body: second.hook, bindings: alerting });
    const toOwner = async () => (await saidTo(Number(OWNER_CHAT))).filter((t) => t.includes('пишет на Авито'));
    await expect.poll(toOwner, { timeout: 5_000 }).toHaveLength(2);
    expect((await toOwner())[0]).toContain('Вы тут?');
    expect((await chatAt(chat.id)).sent.map((s) => s.text)).toEqual(['Ответим утром.']);
    const [listed] = await threads(cookie);
    // The automatic answer is no answer of the owner's: the chat still waits.
    expect(listed!.waitingSince).toBeDefined();
    const { messages } = await thread(cookie, listed!.id);
    expect(messages.map((m) => [m.direction, m.text, m.auto ?? false])).toEqual([
      ['in', 'Вы тут?', false],
      ['out', 'Ответим утром.', true],
      ['in', 'Алло?', false],
    ]);
  });
});

describe('an Avito chat past the retention', () => {
  it('should go with its messages once nothing was written in it for the retention’s years, and a newer one stay', async () => {
    const cookie = await login();
    const { a } = await connected(cookie);
    const [old, recent] = [await newChat(a, 'Старый гость'), await newChat(a, 'Новый гость')];
    await write(old.id, 'Было давно');
    await write(recent.id, 'Пишу сейчас');
    await schedule();
    expect(await threads(cookie)).toHaveLength(2);
    // Four years ago, past the default 3.
    const longAgo = Date.now() - 4 * 366 * 24 * 60 * 60_000;
    await env.DB.prepare(
      "UPDATE messages SET at = ?1 WHERE thread_id = (SELECT id FROM threads WHERE guest_name = 'Старый гость')",
    )
      .bind(longAgo)
      .run();
    await env.DB.prepare("UPDATE threads SET created_at = ?1 WHERE guest_name = 'Старый гость'").bind(longAgo).run();
    await runSchedule(env as unknown as Bindings, { push: false, pull: false, upkeep: true });
    expect((await threads(cookie)).map((t) => t.guestName)).toEqual(['Новый гость']);
    const left = await env.DB.prepare("SELECT count(*) AS n FROM messages WHERE text = 'Было давно'").first<{
      n: number;
    }>();
    expect(left!.n).toBe(0);
  });
});

describe('the owner answers an Avito chat', () => {
  it('should send the answer to the chat through the outbox, once per key, and mark the chat read on Avito', async () => {
    const cookie = await login();
    const { a } = await connected(cookie);
    const chat = await newChat(a);
    await write(chat.id, 'Свободно на выходные?');
    await schedule();
    const [listed] = await threads(cookie);
    const body = { text: 'Да, свободно. Бронируйте!', key: 'answer-1200001' };
    const queued = await json(await call('POST', `/api/admin/threads/${listed!.id}/messages`, { cookie, body }), 202);
    expect(queued).toMatchObject({ direction: 'out', text: body.text, status: 'queued' });
    await json(await call('POST', `/api/admin/threads/${listed!.id}/messages`, { cookie, body }), 202);
    expect((await chatAt(chat.id)).sent.map((s) => s.text)).toEqual([body.text]);
    const after = await thread(cookie, listed!.id);
    expect(after.messages.at(-1)).toMatchObject({ direction: 'out', text: body.text, status: 'sent' });
    expect(after.thread.waitingSince).toBeUndefined();

    expect((await chatAt(chat.id)).reads).toBe(0);
    expect(await json(await call('POST', `/api/admin/threads/${listed!.id}/read`, { cookie }), 200)).toEqual({
      unread: 0,
    });
    expect((await chatAt(chat.id)).reads).toBe(1);
    expect((await threads(cookie))[0]).toMatchObject({ unread: 0 });
  });
});

describe('Avito refuses', () => {
  it('should show a plan without the Messenger API in Avito’s words, fail an answer with them, and keep the calendar in sync', async () => {
    const cookie = await login();
    const { a, cabin } = await connected(cookie);
    const chat = await newChat(a);
    await write(chat.id, 'Здравствуйте!');
    await schedule();
    const [listed] = await threads(cookie);
    expect(await chatsStatus(cookie)).toEqual({ webhook: true });

    await control('/messenger', 'POST', { userId: a.userId, refuse: true });
    await json(
      await call('POST', `/api/admin/threads/${listed!.id}/messages`, { cookie, body: { text: 'Ответ' } }),
      202,
    );
    const failed = (await thread(cookie, listed!.id)).messages.at(-1);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed!.error).toContain(MESSENGER_REFUSAL);
    expect((await chatsStatus(cookie))?.refused).toBe(MESSENGER_REFUSAL);

    // The calendar: a stay booked here still goes to Avito.
    const before = await control<{ busy: { count: number } }>(`/items/${a.items[0]}/pushed`);
    await json(
      await call('POST', `/api/admin/cabins/${cabin}/blocks`, { cookie, body: { start: day(20), end: day(22) } }),
      201,
    );
    await schedule();
    const pushed = await control<{ busy: { count: number; last: { date_start: string }[] } }>(
      `/items/${a.items[0]}/pushed`,
    );
    expect(pushed.busy.count).toBe(before.busy.count + 1);
    expect(pushed.busy.last.map((b) => b.date_start)).toContain(day(20));
    expect(
      (await json<ChannelsAnswer>(await call('GET', '/api/admin/channels', { cookie }), 200)).avito.error,
    ).toBeUndefined();

    // The plan changed: the next reading works and the refusal goes.
    await control('/messenger', 'POST', { userId: a.userId, refuse: false });
    await env.DB.prepare('UPDATE avito_account SET chats_retry_at = NULL').run();
    await write(chat.id, 'Ау?');
    await schedule();
    expect(await chatsStatus(cookie)).toEqual({ webhook: true });
    expect((await thread(cookie, listed!.id)).messages.map((m) => m.text)).toContain('Ау?');
  });

  it('should tell revoked keys in Russian, after one new token was tried', async () => {
    const cookie = await login();
    const { a } = await connected(cookie);
    const chat = await newChat(a);
    await write(chat.id, 'Здравствуйте!');
    await control(`/clients/${encodeURIComponent(a.clientId)}/revoke`, 'POST');
    await env.DB.prepare('UPDATE avito_account SET chats_retry_at = NULL').run();
    await schedule();
    const status = await chatsStatus(cookie);
    expect(status?.error).toMatch(/^Авито больше не принимает ключи API: ключ отозван/);
    expect(await threads(cookie)).toEqual([]);
  });

  it('should tell a 429 in Russian, pause before trying again, and read the chat once Avito answers', async () => {
    const cookie = await login();
    const { a } = await connected(cookie);
    const chat = await newChat(a);
    await write(chat.id, 'Есть парковка?');
    await control('/fail', 'POST', { mode: 'rate', clientId: a.clientId, times: 1 });
    await schedule();
    expect((await chatsStatus(cookie))?.error).toBe('Авито просит реже обращаться к нему: повторим позже');
    const asked = async () =>
      (await control<{ requests: { path: string }[] }>(`/log?clientId=${a.clientId}`)).requests.filter((r) =>
        r.path.startsWith('/messenger/'),
      ).length;
    const before = await asked();
    await schedule();
    expect(await asked()).toBe(before);
    await env.DB.prepare('UPDATE avito_account SET chats_retry_at = 1').run();
    await schedule();
    expect(await chatsStatus(cookie)).toEqual({ webhook: true });
    expect(await threads(cookie)).toMatchObject([{ guestName: 'Ирина Соколова', unread: 1 }]);
  });
});
