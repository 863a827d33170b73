import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays } from '../../schema/dates.ts';
import { GUEST_PAGE_MARKER } from '../../schema/guest-page.ts';
import { MSG } from '../../schema/messages.ts';
import {
  TELEGRAM_CONSENT_TEXT,
  TELEGRAM_LINK_THROTTLE,
  TELEGRAM_REPLIES,
  type TelegramStatus,
} from '../../schema/telegram.ts';
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
import { mailApi, mailsTo, standInMailer } from './mail-stand-in.ts';
import { SHOP, yk } from './yookassa-shop.ts';

/**
 * Guests' messages in Telegram (docs/api.md «Messengers»), on both runtimes: the owner connects a
 * bot, the guest ties a chat by the one-time link of their page, and the booking's automatic
 * messages then also go there through the outbox. Telegram is the stand-in of the global setup
 * (stand-ins/telegram-api.ts): the test reads from it what setWebhook was given and posts the
 * updates Telegram would post, and reads what the bot said.
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

  it('should answer the page’s plain form, before its script has come, with a page that opens the link', async () => {
    await connect(await login());
    const { token: page } = await request();
    const res = await call('POST', `/api/guest/${page}/link/telegram`, {
      rawBody: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toMatch(/href="https:\/\/t\.me\/kaspiy_guests_bot\?start=[0-9a-f]{32}"/);
  });

  it('should change nothing on a forged webhook call: a wrong secret path (404) or a wrong or missing header (401)', async () => {
    const token = await connect(await login());
    const { id, token: page } = await request();
    const code = await linkCode(page);
    const chat = newChat();
    const update = message(nextUpdateId(), chat, `/start ${code}`);
    await expectNoChange(async () => {
      await expectError(await deliver(token, update, { path: `/api/hooks/telegram/${'0'.repeat(48)}` }), 404);
      await expectError(await deliver(token, update, { header: 'f'.repeat(64) }), 401, MSG.telegramHookSecret);
      await expectError(await deliver(token, update, { header: null }), 401, MSG.telegramHookSecret);
    });
    expect(await chatRow(id)).toBeNull();
    expect(await saidTo(chat)).toEqual([]);
  });

  it('should tie the chat on /start with the code, answer in Russian, and keep the consent the guest saw', async () => {
    const token = await connect(await login());
    const { id, token: page } = await request();
    const chat = newChat();
    const res = await deliver(token, message(nextUpdateId(), chat, `/start ${await linkCode(page)}`));
    expect(await json(res, 200)).toEqual({ ok: true });
    expect(await chatRow(id)).toEqual({ chat_id: String(chat), consent: TELEGRAM_CONSENT_TEXT });
    expect(await saidTo(chat)).toEqual(['Готово: сообщения о брони придут сюда.']);
    // The page now says so instead of offering the button.
    const answer = await json<{ telegram?: { linked: boolean } }>(await call('GET', `/api/guest/${page}`), 200);
    expect(answer.telegram).toEqual({ linked: true });
  });

  it.each([
    ['used before', 'reused'],
    ['run out after 30 minutes', 'expired'],
    ['unknown', 'unknown'],
  ] as const)('should tie nothing with a code %s, and answer politely', async (_, how) => {
    const token = await connect(await login());
    const { id, token: page } = await request();
    const code = how === 'unknown' ? 'f'.repeat(32) : await linkCode(page);
    if (how === 'reused') {
      await deliver(token, message(nextUpdateId(), newChat(), `/start ${code}`));
      await env.DB.prepare('DELETE FROM guest_chats').run();
    }
    if (how === 'expired') {
      vi.setSystemTime(Date.now() + 31 * 60_000);
    }
    const chat = newChat();
    expect((await deliver(token, message(nextUpdateId(), chat, `/start ${code}`))).status).toBe(200);
    expect(await chatRow(id)).toBeNull();
    expect(await saidTo(chat)).toEqual(['Ссылка устарела. Откройте страницу брони и нажмите кнопку ещё раз.']);
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

  it('should untie the chat when the guest writes «стоп», and send nothing more there', async () => {
    const cookie = await login();
    const token = await connect(cookie);
    const { id, token: page } = await request();
    const chat = newChat();
    await deliver(token, message(nextUpdateId(), chat, `/start ${await linkCode(page)}`));
    expect(await chatRow(id)).not.toBeNull();
    await deliver(token, message(nextUpdateId(), chat, 'Стоп'));
    expect(await chatRow(id)).toBeNull();
    expect((await saidTo(chat)).at(-1)).toBe(TELEGRAM_REPLIES.stopped);
    await json(await call('PUT', `/api/admin/bookings/${id}`, { cookie, body: { status: 'confirmed' } }), 200);
    expect(await telegramRows(id)).toEqual([]);
    expect(await saidTo(chat)).toHaveLength(2);
  });
});

describe('the guest’s page', () => {
  /** The page as the server writes it, into a shell as small as its filling needs. */
  const pageHtml = async (token: string) => {
    const assets = {
      fetch: async (input: URL | string | Request) => {
        const path = new URL(input instanceof Request ? input.url : input).pathname;
        if (path === '/shell/guest') return new Response(`<!doctype html><main>${GUEST_PAGE_MARKER}</main>`);
        return new Response('Страница не найдена', { status: 404 });
      },
    } as unknown as Fetcher;
    const res = await call('GET', `/b/${token}`, { bindings: { ...PUBLIC, ASSETS: assets } });
    expect(res.status).toBe(200);
    return res.text();
  };

  it('should offer «Получать сообщения в Telegram» as a form that works before the script, once a bot is connected, and say so once the chat is tied', async () => {
    const { token: page } = await request();
    expect(await pageHtml(page)).not.toContain('Telegram');
    const token = await connect(await login());
    const before = await pageHtml(page);
    expect(before).toContain(`<form class="guest__actions" action="/api/guest/${page}/link/telegram" method="post">`);
    expect(before).toContain('Получать сообщения в Telegram');
    expect(before).toContain('за пределами России');
    await deliver(token, message(nextUpdateId(), newChat(), `/start ${await linkCode(page)}`));
    const after = await pageHtml(page);
    expect(after).not.toContain('link/telegram"');
    expect(after).toContain('напишите боту «стоп»');
  });
});

describe('the booking’s messages in the chat', () => {
  it('should send the confirmation to the chat through the outbox, a short text with the page’s link and no instructions, and still by e-mail', async () => {
    const cookie = await login();
    const token = await connect(cookie);
    const { id, email, token: page } = await request();
    await json(
      await call(
        'PUT',
        `/api/admin/cabins/${(await env.DB.prepare('SELECT cabin_id AS c FROM bookings WHERE id = ?').bind(id).first<{ c: number }>())!.c}/instructions`,
        {
          cookie,
          body: { text: 'Код от двери: 4711' },
        },
      ),
      200,
    );
    const chat = newChat();
    await deliver(token, message(nextUpdateId(), chat, `/start ${await linkCode(page)}`));
    await json(await call('PUT', `/api/admin/bookings/${id}`, { cookie, body: { status: 'confirmed' } }), 200);

    const [row, ...more] = await telegramRows(id);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ kind: 'confirmation', recipient: String(chat), sent_at: expect.any(Number) });
    const said = await saidTo(chat);
    expect(said).toHaveLength(2);
    expect(said[1]).toContain('Бронирование подтверждено: «Домик у моря»');
    expect(said[1]).toContain(`${SITE}/b/${page}`);
    expect(said[1]).not.toContain('4711');
    expect((await mailsTo(email)).map((m) => m.subject)).toHaveLength(1);
  });

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

  it('should send the reminder before arrival and the review request after departure to the chat from the schedule, with the review form’s link', async () => {
    const cookie = await login();
    const token = await connect(cookie);
    const { id, email, token: page } = await request();
    const chat = newChat();
    await deliver(token, message(nextUpdateId(), chat, `/start ${await linkCode(page)}`));
    const stay = await json<{ checkIn: string; checkOut: string }>(
      await call('PUT', `/api/admin/bookings/${id}`, { cookie, body: { status: 'confirmed' } }),
      200,
    );
    const schedule = () => runSchedule({ ...env, ...PUBLIC } as Bindings, { push: true, pull: false, upkeep: true });
    vi.setSystemTime(new Date(`${addDays(stay.checkIn, -2)}T09:00:00Z`));
    await schedule();
    expect((await saidTo(chat)).at(-1)).toMatch(/^Скоро заезд: «Домик у моря»/);
    vi.setSystemTime(new Date(`${addDays(stay.checkOut, 2)}T09:00:00Z`));
    await schedule();
    expect((await saidTo(chat)).at(-1)).toContain(`${SITE}/b/${page}#review`);
    expect((await telegramRows(id)).map((r) => [r.kind, r.sent_at !== null])).toEqual([
      ['confirmation', true],
      ['reminder', true],
      ['review', true],
    ]);
    // The e-mails went as before, each once.
    expect(await mailsTo(email)).toHaveLength(3);
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
