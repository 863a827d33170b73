import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import type { Bindings } from '../../worker/env.ts';
import { runSchedule } from '../../worker/scheduled.ts';
import { callWith, jsonOf, login, resetDataWithAdmin, seedCabin, validBooking } from './helpers.ts';
import { saidTo, telegramApi } from './telegram-stand-in.ts';

// The owner is told when a cabin is still not clean an hour before an arrival (docs/features.md
// «Cleaning»), on both runtimes, through the owner's alerts bot on the Telegram stand-in: once from
// 13:00 for a 14:00 check-in, never before, never for a cleaning ticked «Убрано», and once for
// schedule runs that race.

// A chat of each test's own: the stand-in keeps what every test sent.
let chats = 0;
let OWNER_CHAT = '';
const alerting = (): Partial<Bindings> => ({
  TELEGRAM_API_URL: telegramApi,
  TELEGRAM_BOT_TOKEN: '100200:owner-alerts',
  TELEGRAM_CHAT_ID: OWNER_CHAT,
});
const call = callWith(alerting);
const schedule = () =>
  runSchedule({ ...env, ...alerting() } as unknown as Bindings, { push: true, pull: false, upkeep: false });

beforeEach(async () => {
  OWNER_CHAT = String(2_400_000 + ++chats * 1_000 + Math.floor(Math.random() * 1_000));
  await resetDataWithAdmin();
});
afterEach(() => vi.useRealTimers());

const today = todayInMoscow();
/** The instant it is `hh:mm` in Moscow today (UTC+3). */
const moscowAt = (hh: number, mm: number) => Date.parse(`${today}T00:00:00Z`) + ((hh - 3) * 60 + mm) * 60_000;

/** A cabin with a cleaning due today and a confirmed arrival today; the cleaning task's id. */
async function arrivalAfterCleaning(cookie: string) {
  const cabin = await seedCabin({ name: 'Домик у реки', pricePerNight: 5000 });
  const task = await jsonOf<{ id: number }>(
    await call('POST', '/api/admin/tasks', {
      cookie,
      body: { cabinId: cabin.id, due: today, kind: 'cleaning', note: 'Сменить бельё' },
    }),
    201,
  );
  const booked = await jsonOf<{ id: number }>(
    await call('POST', '/api/bookings', {
      body: validBooking(cabin.id, { name: 'Мадина Гасанова', checkIn: today, checkOut: addDays(today, 2) }),
    }),
    201,
  );
  await jsonOf(await call('PUT', `/api/admin/bookings/${booked.id}`, { cookie, body: { status: 'confirmed' } }), 200);
  return { taskId: task.id, bookingId: booked.id };
}

const alerts = async () => (await saidTo(Number(OWNER_CHAT))).filter((t) => t.includes('ещё не убран'));
const keptRows = async () =>
  (await env.DB.prepare("SELECT channel FROM outbox WHERE kind = 'not-clean' AND channel = 'telegram'").all()).results
    .length;

describe('a cabin not clean an hour before an arrival', () => {
  it('should tell the owner once at 13:00 for a 14:00 check-in, and not at 12:59', async () => {
    const cookie = await login();
    await arrivalAfterCleaning(cookie);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(moscowAt(12, 59));
    await schedule();
    expect(await keptRows()).toBe(0);
    vi.setSystemTime(moscowAt(13, 0));
    await schedule();
    vi.setSystemTime(moscowAt(13, 30));
    await schedule();
    await expect.poll(alerts, { timeout: 5_000 }).toHaveLength(1);
    const [alert] = await alerts();
    expect(alert).toContain('Домик «Домик у реки» ещё не убран, а в 14:00 заезд: Мадина,');
    expect(alert).toContain('Задача уборки: Уборка');
    expect(alert).toContain('Сменить бельё');
    expect(alert).not.toContain('Гасанова');
    expect(await keptRows()).toBe(1);
  });

  it('should say nothing once the cleaning is ticked «Убрано», nor at the check-in time itself', async () => {
    const cookie = await login();
    const { taskId } = await arrivalAfterCleaning(cookie);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(moscowAt(14, 0));
    await schedule();
    expect(await keptRows()).toBe(0);
    // Ticked at the real time: the owner's session, made then, lapses 30 idle minutes after it.
    vi.useRealTimers();
    await jsonOf(await call('PUT', `/api/admin/tasks/${taskId}`, { cookie, body: { done: true } }), 200);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(moscowAt(13, 15));
    await schedule();
    expect(await keptRows()).toBe(0);
  });

  it('should keep one alert for two schedule runs at once', async () => {
    const cookie = await login();
    await arrivalAfterCleaning(cookie);
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(moscowAt(13, 5));
    await Promise.all([schedule(), schedule()]);
    expect(await keptRows()).toBe(1);
    await expect.poll(alerts, { timeout: 5_000 }).toHaveLength(1);
  });
});
