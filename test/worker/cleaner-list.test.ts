import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserView } from '../../schema/account.ts';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import type { Bindings } from '../../worker/env.ts';
import { runSchedule } from '../../worker/scheduled.ts';
import {
  callWith,
  expectError,
  jsonOf,
  login,
  resetDataWithAdmin,
  seedCabin,
  seedUser,
  validBooking,
} from './helpers.ts';
import { deliverer, madeUp, message, saidTo, telegramApi } from './telegram-stand-in.ts';

// A cleaner's morning list by the owner's bot (docs/features.md «Cleaning»), on both runtimes,
// against the Telegram stand-in: the cleaner ties a chat from their «Сегодня» by a one-time link,
// and from 08:00 Moscow the schedule sends the day's tasks of their cabins there once, with no
// guest in it; nothing on a day without tasks, nothing once the owner untied the chat or revoked
// the cleaner's link.

const PUBLIC: Partial<Bindings> = { TELEGRAM_API_URL: telegramApi, SITE_URL: 'https://kaspiy.example' };
const call = callWith(PUBLIC);
const deliver = deliverer(call);
const made = madeUp({ updates: 2_400_000, chats: 17_000_000_000 });
const schedule = () =>
  runSchedule({ ...env, ...PUBLIC } as unknown as Bindings, { push: true, pull: false, upkeep: false });

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

const today = todayInMoscow();
/** The instant it is `hh:mm` in Moscow today (UTC+3). */
const moscowAt = (hh: number, mm: number) => Date.parse(`${today}T00:00:00Z`) + ((hh - 3) * 60 + mm) * 60_000;

/**
 * The owner's bot connected, a cleaner of one cabin signed in, a cabin that is not theirs; the
 * cleaner taps «Получать список в Telegram» and «Начать» in the chat. Their chat, cookies and cabins.
 */
async function cleanerWithChat() {
  const owner = await login();
  const token = made.newToken('cleaner');
  await jsonOf(await call('PUT', '/api/admin/messengers', { cookie: owner, body: { telegram: { token } } }), 200);
  const mine = await seedCabin({ name: 'Домик у реки', pricePerNight: 5000 });
  const other = await seedCabin({ name: 'Домик в саду', pricePerNight: 5000 });
  const userId = await seedUser('marina', 'cleaner-pass-1', 'cleaner');
  await env.DB.prepare('INSERT INTO cleaner_cabins (user_id, cabin_id) VALUES (?, ?)').bind(userId, mine.id).run();
  const cleaner = await login({ username: 'marina', password: 'cleaner-pass-1' });
  expect(await jsonOf(await call('GET', '/api/admin/today/messengers', { cookie: cleaner }), 200)).toEqual({
    telegram: { available: true, linked: false },
    max: { available: false, linked: false },
  });
  const { url } = await jsonOf<{ url: string }>(
    await call('POST', '/api/admin/today/messengers/telegram', { cookie: cleaner }),
    200,
  );
  expect(url).toMatch(/^https:\/\/t\.me\/kaspiy_guests_bot\?start=c[0-9a-f]{32}$/);
  const chat = made.newChat();
  await deliver(token, message(made.nextUpdateId(), chat, `/start ${new URL(url).searchParams.get('start')}`));
  await expect.poll(() => saidTo(chat), { timeout: 5_000 }).toHaveLength(1);
  expect((await saidTo(chat))[0]).toContain('каждое утро');
  expect(await jsonOf(await call('GET', '/api/admin/today/messengers', { cookie: cleaner }), 200)).toMatchObject({
    telegram: { linked: true },
  });
  return { owner, cleaner, chat, userId, mine, other };
}

const lists = async (chat: number) => (await saidTo(chat)).filter((t) => t.includes('Задачи на'));

/** A confirmed arrival today in the cabin: its guest must never reach the cleaner. */
async function arrivalToday(owner: string, cabinId: number) {
  const booked = await jsonOf<{ id: number }>(
    await call('POST', '/api/bookings', {
      body: validBooking(cabinId, { name: 'Мадина Гасанова', checkIn: today, checkOut: addDays(today, 2) }),
    }),
    201,
  );
  await jsonOf(
    await call('PUT', `/api/admin/bookings/${booked.id}`, { cookie: owner, body: { status: 'confirmed' } }),
    200,
  );
}

const addTask = async (owner: string, cabinId: number, note: string, kind = 'cleaning') =>
  jsonOf(await call('POST', '/api/admin/tasks', { cookie: owner, body: { cabinId, due: today, kind, note } }), 201);

describe('a cleaner’s morning list', () => {
  it('should send the day’s tasks of their cabins once from 08:00, with deadlines and notes and no guest', async () => {
    const { owner, chat, mine, other } = await cleanerWithChat();
    await addTask(owner, mine.id, 'Сменить бельё');
    await addTask(owner, mine.id, 'Починить кран', 'repair');
    await addTask(owner, other.id, 'Не мой домик');
    await arrivalToday(owner, mine.id);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(moscowAt(7, 59));
    await schedule();
    vi.setSystemTime(moscowAt(8, 0));
    await Promise.all([schedule(), schedule()]);
    vi.setSystemTime(moscowAt(8, 30));
    await schedule();
    await expect.poll(() => lists(chat), { timeout: 5_000 }).toHaveLength(1);
    const [list] = await lists(chat);
    expect(list).toContain('Домик у реки: Уборка, до 14:00. Сменить бельё');
    expect(list).toContain('Домик у реки: Ремонт, до 14:00. Починить кран');
    expect(list).not.toContain('Домик в саду');
    for (const secret of ['Мадина', 'Гасанова', '928', '₽']) expect(list).not.toContain(secret);
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM outbox WHERE kind = 'cleaner-day'").first<{
      n: number;
    }>();
    expect(rows?.n).toBe(1);
  });

  it('should send nothing on a day without tasks, and nothing once the owner untied the chat', async () => {
    const { owner, chat, userId, mine } = await cleanerWithChat();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(moscowAt(8, 5));
    await schedule();
    vi.useRealTimers();
    await addTask(owner, mine.id, 'Сменить бельё');
    // «Люди» tells the owner where the cleaner's list goes, and that it stops going there.
    const tied = async () =>
      (await jsonOf<UserView[]>(await call('GET', '/api/admin/users', { cookie: owner }), 200)).map((u) => [
        u.username,
        u.messengers,
      ]);
    expect(await tied()).toEqual([
      ['admin', []],
      ['marina', ['telegram']],
    ]);
    expect(await jsonOf(await call('DELETE', `/api/admin/users/${userId}/messengers`, { cookie: owner }), 200)).toEqual(
      {
        success: true,
      },
    );
    expect(await tied()).toEqual([
      ['admin', []],
      ['marina', []],
    ]);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(moscowAt(8, 10));
    await schedule();
    await new Promise((r) => setTimeout(r, 300));
    expect(await lists(chat)).toEqual([]);
  });

  it('should stop once the cleaner’s sign-in link is revoked', async () => {
    const { owner, chat, userId, mine } = await cleanerWithChat();
    await addTask(owner, mine.id, 'Сменить бельё');
    await jsonOf(await call('POST', `/api/admin/users/${userId}/link`, { cookie: owner }), 200);
    await jsonOf(await call('DELETE', `/api/admin/users/${userId}/link`, { cookie: owner }), 200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(moscowAt(9, 0));
    await schedule();
    await new Promise((r) => setTimeout(r, 300));
    expect(await lists(chat)).toEqual([]);
  });

  it('should tie a MAX dialog by the MAX bot’s «Начать» and send the list there', async () => {
    // No public address: the MAX bot's updates are read by asking, as the owner's «Проверить» and the schedule do.
    const PRIVATE: Partial<Bindings> = { ...PUBLIC, SITE_URL: '' };
    const call = callWith(PRIVATE);
    const schedule = () =>
      runSchedule({ ...env, ...PRIVATE } as unknown as Bindings, { push: true, pull: false, upkeep: false });
    const owner = await login();
    const token = `tok-${crypto.randomUUID()}`;
    const max = (path: string, init?: RequestInit) => fetch(`${env.MAX_API_URL}${path}`, init);
    const press = (payload: string, who: { userId: number; chatId: number }) =>
      max('/_stand-in/start', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, payload, ...who }),
      });
    const set = await jsonOf<{ link: string }>(
      await call('PUT', '/api/admin/max', { cookie: owner, body: { token } }),
      200,
    );
    await press(new URL(set.link).searchParams.get('start')!, { userId: 2_400_101, chatId: 2_400_102 });
    await jsonOf(await call('POST', '/api/admin/max/check', { cookie: owner }), 200);
    const cabin = await seedCabin({ name: 'Домик у реки', pricePerNight: 5000 });
    const userId = await seedUser('marina', 'cleaner-pass-1', 'cleaner');
    await env.DB.prepare('INSERT INTO cleaner_cabins (user_id, cabin_id) VALUES (?, ?)').bind(userId, cabin.id).run();
    const cleaner = await login({ username: 'marina', password: 'cleaner-pass-1' });
    const { url } = await jsonOf<{ url: string }>(
      await call('POST', '/api/admin/today/messengers/max', { cookie: cleaner }),
      200,
    );
    const CLEANER = { userId: 2_400_201, chatId: 2_400_202 };
    await press(new URL(url).searchParams.get('start')!, CLEANER);
    await schedule();
    expect(await jsonOf(await call('GET', '/api/admin/today/messengers', { cookie: cleaner }), 200)).toMatchObject({
      max: { available: true, linked: true },
    });
    await jsonOf(
      await call('POST', '/api/admin/tasks', {
        cookie: owner,
        body: { cabinId: cabin.id, due: today, kind: 'cleaning', note: 'Сменить бельё' },
      }),
      201,
    );
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(moscowAt(8, 1));
    await schedule();
    await schedule();
    const all = (await (await max('/_stand-in/requests')).json()) as {
      path: string;
      authorization: string;
      body: { text?: string } | null;
    }[];
    const toCleaner = all.filter(
      (r) =>
        r.authorization === token &&
        r.path.includes(`user_id=${CLEANER.userId}`) &&
        r.body?.text?.includes('Задачи на'),
    );
    expect(toCleaner).toHaveLength(1);
    expect(toCleaner[0]!.body!.text).toContain('Домик у реки: Уборка, до конца дня. Сменить бельё');
  });

  it('should give the link to a cleaner alone, and only for a bot the owner connected', async () => {
    const owner = await login();
    await expectError(
      await call('GET', '/api/admin/today/messengers', { cookie: owner }),
      409,
      MSG.cleanerListOnlyForCleaner,
    );
    const userId = await seedUser('marina', 'cleaner-pass-1', 'cleaner');
    const cleaner = await login({ username: 'marina', password: 'cleaner-pass-1' });
    await expectError(
      await call('POST', '/api/admin/today/messengers/telegram', { cookie: cleaner }),
      409,
      MSG.cleanerNoTelegramBot,
    );
    await expectError(
      await call('POST', '/api/admin/today/messengers/sms', { cookie: cleaner }),
      400,
      MSG.cleanerMessengerInvalid,
    );
    // The owner's route is not the cleaner's.
    expect((await call('DELETE', `/api/admin/users/${userId}/messengers`, { cookie: cleaner })).status).toBe(403);
  });
});
