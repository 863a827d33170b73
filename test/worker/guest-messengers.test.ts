import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { addDays } from '../../schema/dates.ts';
import { GUEST_PAGE_MARKER } from '../../schema/guest-page.ts';
import { MAX_CONSENT_TEXT, MAX_REPLIES } from '../../schema/max.ts';
import { MSG } from '../../schema/messages.ts';
import { TELEGRAM_CONSENT_TEXT, TELEGRAM_REPLIES } from '../../schema/telegram.ts';
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
  validBooking,
} from './helpers.ts';
import { mailsTo, standInMailer } from './mail-stand-in.ts';
import * as max from './max-stand-in.ts';
import * as telegram from './telegram-stand-in.ts';
import { SHOP } from './yookassa-shop.ts';

/**
 * What the guests' Telegram bot and the owner's MAX bot (serving guests too) do alike, on both
 * runtimes, one table of cases run for each messenger: the guest ties a chat by the one-time link
 * of their page, a forged webhook call changes nothing, «стоп» unties it, and the booking's
 * messages go there through the outbox. What only one of them does is in guest-telegram.test.ts
 * and guest-max.test.ts.
 */
const SITE = 'https://kaspiy.example';
const PUBLIC: Partial<Bindings> = { TELEGRAM_API_URL: telegram.telegramApi, SITE_URL: SITE, MAILER: standInMailer() };
const call = callWith(PUBLIC);
const json = jsonOf;

/** One messenger as a test drives it: the owner connects its bot, a guest writes to it. */
type Messenger = {
  name: 'Telegram' | 'MAX';
  channel: 'telegram' | 'max';
  /** The deep link's address before `?start=`. */
  link: string;
  connect: (cookie: string) => Promise<string>;
  newChat: () => number;
  /** The update of the guest's tap on the link (`/start code`, or «Начать» with the code). */
  start: (token: string, chat: number, code: string) => Promise<unknown>;
  wrote: (token: string, chat: number, text: string) => Promise<unknown>;
  deliver: (token: string, update: unknown, forge?: { path?: string; header?: string | null }) => Promise<Response>;
  saidTo: (token: string, chat: number) => Promise<unknown[]>;
  /** The chat tied to a booking and the consent kept with it. */
  chatOf: (bookingId: number) => Promise<{ chat: string; consent: string } | null>;
  chats: string;
  replies: { linked: string; stopped: string; stale: string };
  hookSecretError: string;
  consent: string;
  /** What the guest's page says once the chat is tied. */
  tiedWords: string;
};

const made = telegram.madeUp({ updates: 1_800_000, chats: 13_000_000_000 });
let maxUsers = 0;

const TELEGRAM: Messenger = {
  name: 'Telegram',
  channel: 'telegram',
  link: 'https://t.me/kaspiy_guests_bot',
  connect: async (cookie) => {
    const token = made.newToken('both');
    await json(await call('PUT', '/api/admin/messengers', { cookie, body: { telegram: { token } } }), 200);
    return token;
  },
  newChat: made.newChat,
  start: async (_, chat, code) => telegram.message(made.nextUpdateId(), chat, `/start ${code}`),
  wrote: async (_, chat, text) => telegram.message(made.nextUpdateId(), chat, text),
  deliver: (token, update, forge) => telegram.deliverer(call)(token, update, forge),
  saidTo: (_, chat) => telegram.saidTo(chat),
  chatOf: (id) =>
    env.DB.prepare('SELECT chat_id AS chat, consent FROM guest_chats WHERE booking_id = ?')
      .bind(id)
      .first<{ chat: string; consent: string }>(),
  chats: 'guest_chats',
  replies: TELEGRAM_REPLIES,
  hookSecretError: MSG.telegramHookSecret,
  consent: TELEGRAM_CONSENT_TEXT,
  tiedWords: 'напишите боту «стоп»',
};

const MAX: Messenger = {
  name: 'MAX',
  channel: 'max',
  link: 'https://max.ru/kaspiy_alerts_bot',
  connect: async (cookie) => {
    const token = `both-${crypto.randomUUID()}`;
    await json(await call('PUT', '/api/admin/messengers', { cookie, body: { max: { token } } }), 200);
    return token;
  },
  newChat: () => 13_000_000_000 + ++maxUsers * 17 + Math.floor(Math.random() * 13),
  start: (token, user, code) => max.started(token, user, code),
  wrote: (token, user, text) => max.wrote(token, user, text),
  deliver: (token, update, forge) => max.deliverer(call)(token, update as max.Update, forge),
  saidTo: (token, user) => max.saidTo(token, user),
  chatOf: (id) =>
    env.DB.prepare('SELECT user_id AS chat, consent FROM guest_max_chats WHERE booking_id = ?')
      .bind(id)
      .first<{ chat: string; consent: string }>(),
  chats: 'guest_max_chats',
  replies: MAX_REPLIES,
  hookSecretError: MSG.maxHookSecret,
  consent: MAX_CONSENT_TEXT,
  tiedWords: 'Сообщения о брони приходят и в MAX',
};

let guests = 0;
/** A guest's request, as a visitor sends it: its id, page token, e-mail and cabin. */
async function request(overrides: Record<string, unknown> = {}) {
  const email = `both${++guests}.${Math.random().toString(36).slice(2, 8)}@example.ru`;
  const cabin = await seedCabin({ name: 'Домик у моря', pricePerNight: 5000 });
  const { id } = await json<{ id: number }>(
    await call('POST', '/api/bookings', {
      body: validBooking(cabin.id, { name: 'Мадина Гасанова', email, ...overrides }),
    }),
    201,
  );
  const page = (await env.DB.prepare('SELECT guest_token AS t FROM bookings WHERE id = ?')
    .bind(id)
    .first<{ t: string }>())!.t;
  return { id, email, cabin: cabin.id, page };
}

const confirm = async (cookie: string, id: number) =>
  json<{ checkIn: string; checkOut: string }>(
    await call('PUT', `/api/admin/bookings/${id}`, { cookie, body: { status: 'confirmed' } }),
    200,
  );

const rowsOf = (m: Messenger, bookingId: number) =>
  env.DB.prepare('SELECT kind, recipient, text, sent_at FROM outbox WHERE booking_id = ? AND channel = ? ORDER BY id')
    .bind(bookingId, m.channel)
    .all<{ kind: string; recipient: string; text: string; sent_at: number | null }>()
    .then((r) => r.results);

/** The page as the server writes it, into a shell as small as its filling needs. */
const pageHtml = async (page: string) => {
  const assets = {
    fetch: async (input: URL | string | Request) => {
      const path = new URL(input instanceof Request ? input.url : input).pathname;
      if (path === '/shell/guest') return new Response(`<!doctype html><main>${GUEST_PAGE_MARKER}</main>`);
      return new Response('Страница не найдена', { status: 404 });
    },
  } as unknown as Fetcher;
  const res = await call('GET', `/b/${page}`, { bindings: { ...PUBLIC, ASSETS: assets } });
  expect(res.status).toBe(200);
  return res.text();
};

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

describe.each([TELEGRAM, MAX])('a guest and the $name bot', (m) => {
  /** The guest's tap on the page's button: the one-time code of the link. */
  const linkCode = async (page: string) => {
    const { url } = await json<{ url: string }>(
      await call('POST', `/api/guest/${page}/link/${m.channel}`, { body: {} }),
      200,
    );
    const link = new URL(url);
    expect(`${link.origin}${link.pathname}`).toBe(m.link);
    return link.searchParams.get('start')!;
  };
  /** The guest's chat tied by the webhook. */
  const tie = async (token: string, page: string) => {
    const chat = m.newChat();
    expect((await m.deliver(token, await m.start(token, chat, await linkCode(page)))).status).toBe(200);
    return chat;
  };

  it('should answer the page’s plain form, before its script has come, with a page that opens the link', async () => {
    await m.connect(await login());
    const { page } = await request();
    const res = await call('POST', `/api/guest/${page}/link/${m.channel}`, {
      rawBody: '',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.text()).toContain(`href="${m.link}?start=`);
  });

  it('should change nothing on a forged webhook call: a wrong secret path (404) or a wrong or missing header (401)', async () => {
    const token = await m.connect(await login());
    const { id, page } = await request();
    const chat = m.newChat();
    const update = await m.start(token, chat, await linkCode(page));
    await expectNoChange(async () => {
      await expectError(await m.deliver(token, update, { path: `/api/hooks/${m.channel}/${'0'.repeat(48)}` }), 404);
      await expectError(await m.deliver(token, update, { header: 'f'.repeat(64) }), 401, m.hookSecretError);
      await expectError(await m.deliver(token, update, { header: null }), 401, m.hookSecretError);
    });
    expect(await m.chatOf(id)).toBeNull();
    expect(await m.saidTo(token, chat)).toEqual([]);
  });

  it('should tie the chat by the code, answer in Russian, and keep the consent the guest saw', async () => {
    const token = await m.connect(await login());
    const { id, page } = await request();
    const chat = await tie(token, page);
    expect(await m.chatOf(id)).toEqual({ chat: String(chat), consent: m.consent });
    expect(await m.saidTo(token, chat)).toEqual([m.replies.linked]);
    // The page's answer now says so instead of offering the button.
    const answer = await json<Record<string, unknown>>(await call('GET', `/api/guest/${page}`), 200);
    expect(answer[m.channel]).toEqual({ linked: true });
  });

  it.each([
    ['used before', 'reused'],
    ['run out after 30 minutes', 'expired'],
    ['unknown', 'unknown'],
    ['made for the other messenger', 'other'],
  ] as const)('should tie nothing with a code %s, and answer politely', async (_, how) => {
    const token = await m.connect(await login());
    const { id, page } = await request();
    const code = how === 'unknown' ? 'f'.repeat(32) : await linkCode(page);
    if (how === 'reused') {
      await m.deliver(token, await m.start(token, m.newChat(), code));
      await env.DB.prepare(`DELETE FROM ${m.chats}`).run();
    }
    if (how === 'other')
      await env.DB.prepare('UPDATE guest_link_codes SET channel = ?')
        .bind(m === MAX ? 'telegram' : 'max')
        .run();
    if (how === 'expired') vi.setSystemTime(Date.now() + 31 * 60_000);
    const chat = m.newChat();
    expect((await m.deliver(token, await m.start(token, chat, code))).status).toBe(200);
    expect(await m.chatOf(id)).toBeNull();
    expect(await m.saidTo(token, chat)).toEqual([m.replies.stale]);
  });

  it('should untie the chat when the guest writes «стоп», and send nothing more there', async () => {
    const cookie = await login();
    const token = await m.connect(cookie);
    const { id, page } = await request();
    const chat = await tie(token, page);
    await m.deliver(token, await m.wrote(token, chat, 'Стоп'));
    expect(await m.chatOf(id)).toBeNull();
    expect((await m.saidTo(token, chat)).at(-1)).toBe(m.replies.stopped);
    await confirm(cookie, id);
    expect(await rowsOf(m, id)).toEqual([]);
    expect(await m.saidTo(token, chat)).toHaveLength(2);
  });

  it(`should offer «Получать сообщения в ${m.name}» on the guest’s page as a form that works before the script, once the bot is connected, and say so once the chat is tied`, async () => {
    const { page } = await request();
    expect(await pageHtml(page)).not.toContain(`link/${m.channel}`);
    const token = await m.connect(await login());
    const before = await pageHtml(page);
    expect(before).toContain(
      `<form class="guest__actions" action="/api/guest/${page}/link/${m.channel}" method="post">`,
    );
    expect(before).toContain(`Получать сообщения в ${m.name}`);
    expect(before).toContain(m.consent);
    await tie(token, page);
    const after = await pageHtml(page);
    expect(after).not.toContain(`link/${m.channel}"`);
    expect(after).toContain(m.tiedWords);
  });

  it('should send the confirmation to the chat through the outbox, a short text with the page’s link and no instructions, and still by e-mail', async () => {
    const cookie = await login();
    const token = await m.connect(cookie);
    const { id, email, cabin, page } = await request();
    await json(
      await call('PUT', `/api/admin/cabins/${cabin}/instructions`, { cookie, body: { text: 'Код от двери: 4711' } }),
      200,
    );
    const chat = await tie(token, page);
    await confirm(cookie, id);
    const [row, ...more] = await rowsOf(m, id);
    expect(more).toEqual([]);
    expect(row).toMatchObject({ kind: 'confirmation', recipient: String(chat), sent_at: expect.any(Number) });
    const said = await m.saidTo(token, chat);
    expect(said).toHaveLength(2);
    expect(said[1]).toContain('Бронирование подтверждено: «Домик у моря»');
    expect(said[1]).toContain(`${SITE}/b/${page}`);
    expect(said[1]).not.toContain('4711');
    expect(await mailsTo(email)).toHaveLength(1);
  });

  it('should send the reminder before arrival and the review request after departure from the schedule, with the review form’s link', async () => {
    const cookie = await login();
    const token = await m.connect(cookie);
    const { id, email, page } = await request();
    const chat = await tie(token, page);
    const stay = await confirm(cookie, id);
    const schedule = () => runSchedule({ ...env, ...PUBLIC } as Bindings, { push: true, pull: false, upkeep: true });
    vi.setSystemTime(new Date(`${addDays(stay.checkIn, -2)}T09:00:00Z`));
    await schedule();
    expect((await m.saidTo(token, chat)).at(-1)).toMatch(/^Скоро заезд: «Домик у моря»/);
    vi.setSystemTime(new Date(`${addDays(stay.checkOut, 2)}T09:00:00Z`));
    await schedule();
    expect((await m.saidTo(token, chat)).at(-1)).toContain(`${SITE}/b/${page}#review`);
    expect((await rowsOf(m, id)).map((r) => [r.kind, r.sent_at !== null])).toEqual([
      ['confirmation', true],
      ['reminder', true],
      ['review', true],
    ]);
    // The e-mails went as before, each once.
    expect(await mailsTo(email)).toHaveLength(3);
  });

  it('should send the check-in day’s message from 08:00 Moscow time, once, with the page’s link and nothing of the instructions', async () => {
    const cookie = await login();
    const token = await m.connect(cookie);
    const { id, page } = await request();
    const chat = await tie(token, page);
    const stay = await confirm(cookie, id);
    const schedule = () => runSchedule({ ...env, ...PUBLIC } as Bindings, { push: true, pull: false, upkeep: true });
    // 07:59 in Moscow on the check-in day: not yet.
    vi.setSystemTime(new Date(`${stay.checkIn}T04:59:00Z`));
    await schedule();
    expect((await rowsOf(m, id)).map((r) => r.kind)).toEqual(['confirmation']);
    vi.setSystemTime(new Date(`${stay.checkIn}T05:00:00Z`));
    await schedule();
    await schedule();
    const said = await m.saidTo(token, chat);
    expect(said.at(-1)).toMatch(/^Сегодня заезд\. Как добраться и заселиться — на странице брони: «Домик у моря»/);
    expect(said.at(-1)).toContain(`${SITE}/b/${page}`);
    expect((await rowsOf(m, id)).map((r) => [r.kind, r.sent_at !== null])).toEqual([
      ['confirmation', true],
      ['arrival', true],
    ]);
  });

  it('should send the payment link the owner sends for a request to the chat too, with the page’s link', async () => {
    const owner = callWith({ ...PUBLIC, ...SHOP });
    const cookie = await login();
    const token = await m.connect(cookie);
    const { id, page } = await request();
    const chat = await tie(token, page);
    await json(await owner('POST', `/api/admin/bookings/${id}/payment-link`, { cookie, body: {} }), 200);
    await vi.waitFor(async () => expect(await rowsOf(m, id)).toHaveLength(1), { timeout: 10_000 });
    await vi.waitFor(async () => expect((await m.saidTo(token, chat)).length).toBe(2), { timeout: 10_000 });
    const said = await m.saidTo(token, chat);
    expect(said[1]).toMatch(/^Ссылка на оплату брони: даты держим за вами, пока вы платите: «Домик у моря»/);
    expect(said[1]).toContain(`${SITE}/b/${page}`);
    expect((await rowsOf(m, id)).map((r) => r.kind)).toEqual(['paylink']);
  });
});
