import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../schema/messages.ts';
import { TELEGRAM_LINK_THROTTLE, TELEGRAM_REPLIES, type TelegramStatus } from '../../schema/telegram.ts';
import type { Bindings } from '../../worker/env.ts';
import { runSchedule } from '../../worker/scheduled.ts';
import {
  callWith,
  expectError,
  expectNoChange,
  jsonOf,
  login,
  resetDataWithAdmin,
  seedCabin,
  seedUser,
  validBooking,
} from './helpers.ts';
import { deliverer, madeUp, message, saidTo, standIn, telegramApi, webhookOf } from './telegram-stand-in.ts';
import { mailApi, standInMailer } from './mail-stand-in.ts';
import { SHOP, yk } from './yookassa-shop.ts';

/**
 * Guests' messages in Telegram (docs/api.md «Messengers»), on both runtimes: the owner connects a
 * bot, the guest ties a chat by the one-time link of their page, and the booking's automatic
 * messages then also go there through the outbox. Telegram is the stand-in of the global setup
 * (stand-ins/telegram-api.ts): the test reads from it what setWebhook was given and posts the
 * updates Telegram would post, and reads what the bot said. What MAX's bot does alike (the link, a
 * forged webhook call, «стоп», the page's button, the booking's messages) is in
 * guest-messengers.test.ts, one table of cases for both.
 */
const SITE = 'https://kaspiy.example';
const MAILER = standInMailer();
/** A server with a public address (webhook), and one without (polling from the schedule). */
const PUBLIC: Partial<Bindings> = { TELEGRAM_API_URL: telegramApi, SITE_URL: SITE, MAILER };
const PRIVATE: Partial<Bindings> = { TELEGRAM_API_URL: telegramApi, SITE_URL: '', MAILER };
const call = callWith(PUBLIC);
const json = jsonOf;

const made = madeUp({ updates: 500_000, chats: 7_000_000_000 });
const newToken = (secret = 'guests') => made.newToken(secret);
const { nextUpdateId, newChat } = made;
const deliver = deliverer(call);

const status = async (res: Response, expected = 200) =>
  (await json<{ telegram: TelegramStatus }>(res, expected)).telegram;

async function connect(cookie: string, token = newToken(), bindings = PUBLIC) {
  const set = await status(
    await call('PUT', '/api/admin/messengers', { cookie, body: { telegram: { token } }, bindings }),
  );
  expect(set).toMatchObject({ connected: true, botUsername: 'kaspiy_guests_bot', last4: token.slice(-4) });
  return token;
}

const tokenOf = async (id: number) =>
  (await env.DB.prepare('SELECT guest_token AS t FROM bookings WHERE id = ?').bind(id).first<{ t: string }>())!.t;

let guests = 0;
/** A guest's request, as a visitor sends it: its id, page token and e-mail. */
async function request(email = `tg${++guests}.${Math.random().toString(36).slice(2, 8)}@example.ru`) {
  const cabin = await seedCabin({ name: 'Домик у моря', pricePerNight: 5000 });
  const { id } = await json<{ id: number }>(
    await call('POST', '/api/bookings', { body: validBooking(cabin.id, { name: 'Мадина Гасанова', email }) }),
    201,
  );
  return { id, email, token: await tokenOf(id) };
}

/** The guest's tap on «Получать сообщения в Telegram»: the code of the deep link. */
async function linkCode(pageToken: string, bindings = PUBLIC) {
  const { url } = await json<{ url: string }>(
    await call('POST', `/api/guest/${pageToken}/link/telegram`, { body: {}, bindings }),
    200,
  );
  const link = new URL(url);
  expect(`${link.origin}${link.pathname}`).toBe('https://t.me/kaspiy_guests_bot');
  return link.searchParams.get('start')!;
}

const chatRow = (bookingId: number) =>
  env.DB.prepare('SELECT chat_id, consent FROM guest_chats WHERE booking_id = ?')
    .bind(bookingId)
    .first<{ chat_id: string; consent: string }>();
const telegramRows = (bookingId: number) =>
  env.DB.prepare(
    "SELECT kind, recipient, text, sent_at FROM outbox WHERE booking_id = ? AND channel = 'telegram' ORDER BY id",
  )
    .bind(bookingId)
    .all<{ kind: string; recipient: string; text: string; sent_at: number | null }>()
    .then((r) => r.results);

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

describe('the owner connects the guests’ bot', () => {
  it('should check the token with Telegram, set the webhook to this site with a secret header, and show only the token’s last 4 characters', async () => {
    const cookie = await login();
    expect(await status(await call('GET', '/api/admin/messengers', { cookie }))).toEqual({
      connected: false,
      last4: null,
    });
    const token = await connect(cookie);
    const hook = await webhookOf(token);
    expect(hook!.url).toMatch(new RegExp(`^${SITE}/api/hooks/telegram/[0-9a-f]{48}$`));
    expect(hook!.secret_token).toMatch(/^[0-9a-f]{64}$/);
    const shown = await call('GET', '/api/admin/messengers', { cookie });
    const text = await shown.clone().text();
    expect(text).not.toContain(token);
    expect(text).not.toContain(hook!.secret_token);
    expect(await status(shown)).toMatchObject({ connected: true, mode: 'webhook', last4: token.slice(-4) });
  });

  it.each([
    ['a token Telegram refuses', newToken('rejected'), 400, MSG.telegramTokenRejected],
    ['a token that is not shaped like one', 'not a token', 400, MSG.telegramTokenInvalid],
    ['an empty token', '', 400, MSG.telegramTokenRequired],
  ])('should refuse %s with a Russian error and keep nothing', async (_, token, code, error) => {
    const cookie = await login();
    await expectNoChange(async () =>
      expectError(await call('PUT', '/api/admin/messengers', { cookie, body: { telegram: { token } } }), code, error),
    );
    expect(await status(await call('GET', '/api/admin/messengers', { cookie }))).toMatchObject({ connected: false });
  });

  it('should refuse a manager with 403, reading and writing', async () => {
    await seedUser('manager', 'manager-password-1');
    const cookie = await login({ username: 'manager', password: 'manager-password-1' });
    await expectError(await call('GET', '/api/admin/messengers', { cookie }), 403, MSG.forbidden);
    await expectNoChange(async () =>
      expectError(
        await call('PUT', '/api/admin/messengers', { cookie, body: { telegram: { token: newToken() } } }),
        403,
        MSG.forbidden,
      ),
    );
  });

  it('should use polling instead of a webhook where the server has no public address, and read the updates from the schedule', async () => {
    const cookie = await login();
    const token = await connect(cookie, newToken(), PRIVATE);
    expect(await webhookOf(token)).toBeNull();
    expect(await status(await call('GET', '/api/admin/messengers', { cookie }))).toMatchObject({ mode: 'polling' });
    const { id, token: page } = await request();
    const code = await linkCode(page, PRIVATE);
    const chat = newChat();
    await standIn('/_stand-in/updates', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token, update: message(nextUpdateId(), chat, `/start ${code}`) }),
    });
    await runSchedule({ ...env, ...PRIVATE } as Bindings, { push: true, pull: false, upkeep: false });
    expect(await chatRow(id)).toMatchObject({ chat_id: String(chat) });
    expect(await saidTo(chat)).toEqual([TELEGRAM_REPLIES.linked]);
    // The next read starts after it: the same update is not taken again.
    await runSchedule({ ...env, ...PRIVATE } as Bindings, { push: true, pull: false, upkeep: false });
    expect(await saidTo(chat)).toEqual([TELEGRAM_REPLIES.linked]);
  });
});

describe('the guest ties a chat', () => {
  it('should give a one-time deep link that is not the page’s token, and 409 while no bot is connected', async () => {
    const { token: page } = await request();
    await expectError(
      await call('POST', `/api/guest/${page}/link/telegram`, { body: {} }),
      409,
      MSG.telegramNotConnected,
    );
    await connect(await login());
    const first = await linkCode(page);
    const second = await linkCode(page);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(second).not.toBe(first);
    expect(first).not.toContain(page);
    // Only the hash of a code is kept.
    const stored = await env.DB.prepare('SELECT code_hash FROM guest_link_codes').all<{ code_hash: string }>();
    expect(stored.results.map((r) => r.code_hash)).not.toContain(first);
    await expectError(
      await call('POST', `/api/guest/${'0'.repeat(36)}/link/telegram`, { body: {} }),
      404,
      MSG.guestPageNotFound,
    );
  });

  it('should refuse a page more than 20 links an hour with 429 in Russian, storing no more codes', async () => {
    const { token: page } = await request();
    await connect(await login());
    for (let i = 0; i < TELEGRAM_LINK_THROTTLE.max; i++) await linkCode(page);
    const count = async () =>
      (await env.DB.prepare('SELECT count(*) AS n FROM guest_link_codes').first<{ n: number }>())!.n;
    const before = await count();
    await expectError(
      await call('POST', `/api/guest/${page}/link/telegram`, { body: {} }),
      429,
      MSG.telegramLinkThrottled,
    );
    expect(await count()).toBe(before);
  });

  it('should take an update delivered twice once: stored once, answered once', async () => {
    const token = await connect(await login());
    const { id, token: page } = await request();
    const chat = newChat();
    const update = message(nextUpdateId(), chat, `/start ${await linkCode(page)}`);
    expect((await deliver(token, update)).status).toBe(200);
    expect((await deliver(token, update)).status).toBe(200);
    const stored = await env.DB.prepare('SELECT count(*) AS n FROM telegram_updates WHERE update_id = ?')
      .bind(update.update_id)
      .first<{ n: number }>();
    expect(stored!.n).toBe(1);
    expect(await chatRow(id)).toMatchObject({ chat_id: String(chat) });
    expect(await saidTo(chat)).toEqual([TELEGRAM_REPLIES.linked]);
  });
});

describe('the booking’s messages in the chat', () => {
  it('should keep a message Telegram did not take and send it from the schedule’s drain', async () => {
    const cookie = await login();
    const token = await connect(cookie);
    const { id, token: page } = await request();
    const chat = newChat();
    await deliver(token, message(nextUpdateId(), chat, `/start ${await linkCode(page)}`));
    // Telegram unreachable while the owner confirms: the row stays unsent.
    await json(
      await call('PUT', `/api/admin/bookings/${id}`, {
        cookie,
        body: { status: 'confirmed' },
        // An address that answers, but not as Telegram: a failed try, as when Telegram is down.
        bindings: { ...PUBLIC, TELEGRAM_API_URL: `${mailApi}/not-telegram` },
      }),
      200,
    );
    expect(await telegramRows(id)).toMatchObject([{ kind: 'confirmation', sent_at: null }]);
    expect(await saidTo(chat)).toHaveLength(1);
    vi.setSystemTime(Date.now() + 10 * 60_000);
    await runSchedule({ ...env, ...PUBLIC } as Bindings, { push: true, pull: false, upkeep: false });
    expect(await telegramRows(id)).toMatchObject([{ kind: 'confirmation', sent_at: expect.any(Number) }]);
    expect((await saidTo(chat)).at(-1)).toContain('Бронирование подтверждено');
  });

  it('should send the confirmation of a prepaid hold to the chat from the payment’s own transition', async () => {
    const cookie = await login();
    const token = await connect(cookie, newToken(), { ...PUBLIC, ...SHOP });
    const pay = callWith({ ...PUBLIC, ...SHOP });
    await json(
      await pay('PUT', '/api/settings', {
        cookie,
        body: { bookingMode: 'prepayment', prepayment: { kind: 'percent', percent: 30 }, holdMinutes: 30 },
      }),
      200,
    );
    const cabin = await seedCabin({ name: 'Домик у моря', pricePerNight: 5000 });
    const { id } = await json<{ id: number }>(
      await pay('POST', '/api/bookings', { body: validBooking(cabin.id) }),
      201,
    );
    const page = await tokenOf(id);
    const chat = newChat();
    await deliver(token, message(nextUpdateId(), chat, `/start ${await linkCode(page)}`));
    const payment = (await env.DB.prepare('SELECT id FROM payments WHERE booking_id = ?')
      .bind(id)
      .first<{ id: string }>())!.id;
    expect((await fetch(`${yk.base}/_payments/${payment}/succeed`, { method: 'POST' })).status).toBe(200);
    await json(
      await pay('POST', '/api/payments/yookassa', {
        body: {
          type: 'notification',
          event: 'payment.succeeded',
          object: { id: payment, status: 'succeeded', paid: true },
        },
      }),
      200,
    );
    expect(await telegramRows(id)).toMatchObject([
      { kind: 'confirmation', recipient: String(chat), sent_at: expect.any(Number) },
    ]);
    expect((await saidTo(chat)).at(-1)).toContain(`Бронирование подтверждено: «Домик у моря»`);
  });
});
