import { env } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_REPLIES, MAX_TEXT_LIMIT, type MaxStatus } from '../../schema/max.ts';
import { MSG } from '../../schema/messages.ts';
import type { ThreadAnswer, ThreadView } from '../../schema/threads.ts';
import type { Bindings } from '../../worker/env.ts';
import { forgetOldBookings } from '../../worker/queries/bookings.ts';
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
import { standInMailer } from './mail-stand-in.ts';
import { deliverer, requestsWith, saidTo, standIn, started, subscriptionOf, wrote } from './max-stand-in.ts';

/**
 * Guests' messages in MAX (docs/api.md «Messengers»), on both runtimes: the owner's MAX bot, the
 * one of their alerts, serves guests too. The guest ties their dialog by the one-time link of their
 * page, their words land in the booking's thread, and the booking's messages and the owner's
 * answers go to the dialog through the outbox. MAX is the stand-in of the global setup
 * (stand-ins/max-api.ts): the test reads from it the webhook subscription and what the bot said,
 * and makes the updates MAX would post or hand to GET /updates. What the guests' Telegram bot does
 * alike (the link, a forged webhook call, «стоп», the page's button, the booking's messages) is in
 * guest-messengers.test.ts, one table of cases for both.
 */
const SITE = 'https://kaspiy.example';
const MAILER = standInMailer();
/** A server with a public address (webhook), and one without (polling from the schedule). */
const PUBLIC: Partial<Bindings> = { SITE_URL: SITE, MAILER };
const PRIVATE: Partial<Bindings> = { SITE_URL: '', MAILER };
const call = callWith(PUBLIC);
const json = jsonOf;
/** MAX user ids of this file alone: the stand-in keeps one state for the whole run. */
let users = 0;
const newUser = () => 4_000_000_000 + ++users * 17 + Math.floor(Math.random() * 13);
const OWNER_USER = () => 4_500_000_000 + ++users * 17;

const deliver = deliverer(call);

const newToken = () => `gm-${crypto.randomUUID()}`;
/** «Настройки» → «Уведомления в MAX»: the bot's token saved; its start link's payload. */
async function connect(cookie: string, bindings = PUBLIC, token = newToken()) {
  const res = await call('PUT', '/api/admin/max', { cookie, body: { token }, bindings });
  const set = await json<MaxStatus>(res, 200);
  return { token, payload: new URL(set.link!).searchParams.get('start')! };
}
const schedule = (bindings = PRIVATE) =>
  runSchedule({ ...env, ...bindings } as Bindings, { push: true, pull: false, upkeep: false });

const tokenOf = async (id: number) =>
  (await env.DB.prepare('SELECT guest_token AS t FROM bookings WHERE id = ?').bind(id).first<{ t: string }>())!.t;

let guests = 0;
/** A guest's request, as a visitor sends it: its id, page token, e-mail and cabin. */
async function request() {
  const email = `gm${++guests}.${Math.random().toString(36).slice(2, 8)}@example.ru`;
  const cabin = await seedCabin({ name: 'Домик у моря', pricePerNight: 5000 });
  const { id } = await json<{ id: number }>(
    await call('POST', '/api/bookings', { body: validBooking(cabin.id, { name: 'Мадина Гасанова', email }) }),
    201,
  );
  return { id, email, cabin: cabin.id, page: await tokenOf(id) };
}

/** The guest's tap on «Получать сообщения в MAX»: the one-time code of the link. */
async function linkCode(page: string, bindings = PUBLIC) {
  const { url } = await json<{ url: string }>(
    await call('POST', `/api/guest/${page}/link/max`, { body: {}, bindings }),
    200,
  );
  const link = new URL(url);
  expect(`${link.origin}${link.pathname}`).toBe('https://max.ru/kaspiy_alerts_bot');
  return link.searchParams.get('start')!;
}

/** The guest's dialog tied by the webhook: their MAX user id. */
async function tie(token: string, page: string) {
  const user = newUser();
  expect((await deliver(token, await started(token, user, await linkCode(page)))).status).toBe(200);
  return user;
}

const chatRow = (bookingId: number) =>
  env.DB.prepare('SELECT user_id, consent FROM guest_max_chats WHERE booking_id = ?')
    .bind(bookingId)
    .first<{ user_id: string; consent: string }>();
const maxRows = (bookingId: number) =>
  env.DB.prepare(
    "SELECT kind, recipient, text, sent_at FROM outbox WHERE booking_id = ? AND channel = 'max' ORDER BY id",
  )
    .bind(bookingId)
    .all<{ kind: string; recipient: string; text: string; sent_at: number | null }>()
    .then((r) => r.results);
const confirm = async (cookie: string, id: number) =>
  json<{ checkIn: string; checkOut: string }>(
    await call('PUT', `/api/admin/bookings/${id}`, { cookie, body: { status: 'confirmed' } }),
    200,
  );

beforeEach(resetDataWithAdmin);
afterEach(() => vi.useRealTimers());

describe('the same bot’s updates', () => {
  it('should subscribe MAX to this site’s webhook with secrets where SITE_URL is https, connect the owner by it, and never poll', async () => {
    const cookie = await login();
    const { token, payload } = await connect(cookie);
    const hook = await subscriptionOf(token);
    expect(hook!.url).toMatch(new RegExp(`^${SITE}/api/hooks/max/[0-9a-f]{48}$`));
    expect(hook!.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(hook!.update_types).toEqual(['bot_started', 'message_created']);
    const shown = await (await call('GET', '/api/admin/max', { cookie })).text();
    expect(shown).not.toContain(hook!.secret!);
    expect(shown).not.toContain(new URL(hook!.url).pathname.split('/').at(-1));

    // The owner's «Начать» comes by the webhook: «Проверить подключение» finds it connected.
    const owner = OWNER_USER();
    expect((await deliver(token, await started(token, owner, payload))).status).toBe(200);
    const checked = await json<MaxStatus>(await call('POST', '/api/admin/max/check', { cookie }), 200);
    expect(checked).toMatchObject({ connected: true });
    await schedule(PUBLIC);
    expect((await requestsWith(token)).filter((r) => r.path.startsWith('/updates'))).toEqual([]);
    // The owner's alerts go to the owner's dialog, as before.
    expect((await json<{ sent: boolean }>(await call('POST', '/api/admin/max/test', { cookie }), 200)).sent).toBe(true);
    expect((await saidTo(token, owner)).at(-1)).toContain('Проверка связи');
    // Forgetting the bot takes the subscription down.
    await json(await call('DELETE', '/api/admin/max', { cookie }), 200);
    expect(await subscriptionOf(token)).toBeNull();
  });

  it('should refuse a site address MAX will not post to with a Russian error, keeping no bot', async () => {
    const cookie = await login();
    const token = newToken();
    await expectNoChange(async () =>
      expectError(
        await call('PUT', '/api/admin/max', {
          cookie,
          body: { token },
          bindings: { ...PUBLIC, SITE_URL: 'https://self-signed.kaspiy.example' },
        }),
        400,
        MSG.maxWebhookRefused,
      ),
    );
    expect(await json<MaxStatus>(await call('GET', '/api/admin/max', { cookie }), 200)).toMatchObject({
      configured: false,
    });
  });

  it('should show and set the same bot in «Мессенджеры гостей», never its token, and forget it there', async () => {
    const cookie = await login();
    const messengers = async () =>
      (await json<{ max: unknown }>(await call('GET', '/api/admin/messengers', { cookie }), 200)).max;
    expect(await messengers()).toEqual({ connected: false, last4: null });
    const token = newToken();
    const set = await call('PUT', '/api/admin/messengers', { cookie, body: { max: { token } } });
    const text = await set.clone().text();
    expect(text).not.toContain(token);
    expect((await json<{ max: unknown }>(set, 200)).max).toEqual({
      connected: true,
      botUsername: 'kaspiy_alerts_bot',
      botName: 'Каспий — уведомления',
      last4: token.slice(-4),
      mode: 'webhook',
    });
    // It is the bot of the owner's alerts: «Уведомления в MAX» shows it.
    expect(await json<MaxStatus>(await call('GET', '/api/admin/max', { cookie }), 200)).toMatchObject({
      configured: true,
      tokenEnding: token.slice(-4),
    });
    expect(await subscriptionOf(token)).not.toBeNull();
    await json(await call('PUT', '/api/admin/messengers', { cookie, body: { max: null } }), 200);
    expect(await messengers()).toEqual({ connected: false, last4: null });
    expect(await subscriptionOf(token)).toBeNull();
    await expectError(
      await call('PUT', '/api/admin/messengers', { cookie, body: { max: { token: 'bad-token-refused-by-max' } } }),
      400,
      MSG.maxTokenRejected,
    );
  });

  it('should read the updates by polling where the server has no public address, the guest’s and the owner’s alike, each once', async () => {
    const cookie = await login();
    const { token, payload } = await connect(cookie, PRIVATE);
    expect(await subscriptionOf(token)).toBeNull();
    const { id, page } = await request();
    const user = newUser();
    await started(token, user, await linkCode(page, PRIVATE));
    const owner = OWNER_USER();
    await started(token, owner, payload);
    await schedule();
    expect(await chatRow(id)).toMatchObject({ user_id: String(user) });
    expect(await saidTo(token, user)).toEqual([MAX_REPLIES.linked]);
    expect(await json<MaxStatus>(await call('GET', '/api/admin/max', { cookie }), 200)).toMatchObject({
      connected: true,
    });
    // The next read goes on after them: nothing is taken or answered again.
    await schedule();
    expect(await saidTo(token, user)).toEqual([MAX_REPLIES.linked]);
  });
});

describe('the guest ties their dialog', () => {
  it('should give a one-time max.ru link that is not the page’s token, keeping only its hash, and 404 while no MAX bot is connected', async () => {
    const { page } = await request();
    await expectError(await call('POST', `/api/guest/${page}/link/max`, { body: {} }), 404, MSG.guestPageNotFound);
    await connect(await login());
    const first = await linkCode(page);
    const second = await linkCode(page);
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(second).not.toBe(first);
    expect(first).not.toContain(page);
    const stored = await env.DB.prepare('SELECT code_hash, channel FROM guest_link_codes').all<{
      code_hash: string;
      channel: string;
    }>();
    expect(stored.results.map((r) => r.code_hash)).not.toContain(first);
    expect(stored.results.map((r) => r.channel)).toEqual(['max', 'max']);
    await expectError(
      await call('POST', `/api/guest/${'0'.repeat(36)}/link/max`, { body: {} }),
      404,
      MSG.guestPageNotFound,
    );
  });
});

describe('the booking’s messages from the schedule', () => {
  it('should send a text longer than MAX takes in parts, and after a part failed go on from it, each part once', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const cookie = await login();
    const { token } = await connect(cookie);
    const { id, page } = await request();
    const user = await tie(token, page);
    // Three parts: MAX takes MAX_TEXT_LIMIT characters in one message, cut at a line's end.
    const parts = ['а'.repeat(MAX_TEXT_LIMIT - 10), 'б'.repeat(MAX_TEXT_LIMIT - 2), 'Ждём вас!'];
    const at = Date.now();
    await env.DB.prepare(
      `INSERT INTO outbox (channel, subject, text, attempts, next_attempt_at, created_at, booking_id, kind, recipient, event)
       VALUES ('max', 'Ответ владельца', ?1, 0, ?2, ?2, ?3, 'reply', ?4, 'long-answer')`,
    )
      .bind(parts.join('\n'), at, id, String(user))
      .run();
    // The second part is lost on the way once.
    await standIn('/_stand-in/fail', { userId: user, after: 1 });
    await schedule(PUBLIC);
    expect(await saidTo(token, user)).toEqual([MAX_REPLIES.linked, parts[0]]);
    expect((await maxRows(id)).map((r) => [r.kind, r.sent_at])).toEqual([['reply', null]]);

    vi.setSystemTime(at + 60 * 60_000);
    await schedule(PUBLIC);
    vi.setSystemTime(at + 2 * 60 * 60_000);
    await schedule(PUBLIC);
    expect(await saidTo(token, user)).toEqual([MAX_REPLIES.linked, ...parts]);
    expect((await maxRows(id)).map((r) => [r.kind, r.sent_at])).toEqual([['reply', expect.any(Number)]]);
  });

  it('should give up a message to a guest who blocked the bot and untie their dialog', async () => {
    const cookie = await login();
    const { token } = await connect(cookie);
    const { id, page } = await request();
    const user = await tie(token, page);
    await standIn('/_stand-in/block', { userId: user });
    await confirm(cookie, id);
    expect(
      await env.DB.prepare("SELECT last_error, given_up_at FROM outbox WHERE booking_id = ? AND channel = 'max'")
        .bind(id)
        .first(),
    ).toMatchObject({ last_error: 'Гость заблокировал бота в MAX', given_up_at: expect.any(Number) });
    expect(await chatRow(id)).toBeNull();
  });
});

describe('a conversation in MAX', () => {
  const threads = async (cookie: string) =>
    json<ThreadView[]>(await call('GET', '/api/admin/threads', { cookie }), 200);
  const thread = async (cookie: string, id: number) =>
    json<ThreadAnswer>(await call('GET', `/api/admin/threads/${id}`, { cookie }), 200);

  it('should keep the guest’s words once in the booking’s thread however often MAX posts them, alert the owner in MAX once, and take the owner’s answer to the dialog', async () => {
    const cookie = await login();
    const { token, payload } = await connect(cookie);
    const owner = OWNER_USER();
    await deliver(token, await started(token, owner, payload));
    const { id, page } = await request();
    const user = await tie(token, page);
    const update = await wrote(token, user, 'Можно приехать с собакой?');
    for (const _ of [1, 2, 3]) expect((await deliver(token, update)).status).toBe(200);

    const [listed, ...more] = await threads(cookie);
    expect(more).toEqual([]);
    expect(listed).toMatchObject({ bookingId: id, channel: 'max', guestName: 'Мадина Гасанова', unread: 1 });
    expect((await thread(cookie, listed!.id)).messages).toMatchObject([
      { direction: 'in', text: 'Можно приехать с собакой?', status: 'received' },
    ]);
    // The owner hears of it once, in MAX, with the guest's words; the guest gets no automatic answer.
    const alerts = (await saidTo(token, owner)).filter((t) => t?.includes('Можно приехать с собакой?'));
    expect(alerts).toHaveLength(1);
    expect(alerts[0]).toContain(`бронирование №${id}`);
    expect(await saidTo(token, user)).toEqual([MAX_REPLIES.linked]);

    const answered = await json<{ direction: string; status: string }>(
      await call('POST', `/api/admin/threads/${listed!.id}/messages`, {
        cookie,
        body: { text: 'Да, с собакой можно.' },
      }),
      202,
    );
    expect(answered).toMatchObject({ direction: 'out' });
    expect((await saidTo(token, user)).at(-1)).toBe('Да, с собакой можно.');
    expect((await thread(cookie, listed!.id)).messages.at(-1)).toMatchObject({
      direction: 'out',
      text: 'Да, с собакой можно.',
      status: 'sent',
    });
    // More than MAX takes in one message is refused whole, with nothing queued.
    await expectNoChange(async () =>
      expectError(
        await call('POST', `/api/admin/threads/${listed!.id}/messages`, { cookie, body: { text: 'а'.repeat(4001) } }),
        400,
        MSG.maxReplyTooLong,
      ),
    );
  });

  it('should answer a guest who writes in the owner’s off hours once, in MAX, with the automatic answer', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2031-07-10T20:30:00Z')); // 23:30 in Moscow
    const cookie = await login();
    const { token } = await connect(cookie);
    await json(
      await call('PUT', '/api/admin/reply-templates', {
        cookie,
        body: {
          templates: [],
          autoAnswer: { enabled: true, from: '21:00', to: '09:00', body: 'Сейчас ночь: ответим до 9:00.' },
        },
      }),
      200,
    );
    const { page } = await request();
    const user = await tie(token, page);
    await deliver(token, await wrote(token, user, 'Здравствуйте!'));
    await deliver(token, await wrote(token, user, 'Вы тут?'));
    expect(await saidTo(token, user)).toEqual([MAX_REPLIES.linked, 'Сейчас ночь: ответим до 9:00.']);
    const [listed] = await threads(cookie);
    expect((await thread(cookie, listed!.id)).messages.map((m) => [m.direction, m.auto ?? false])).toEqual([
      ['in', false],
      ['out', true],
      ['in', false],
    ]);
  });

  it('should tell a dialog tied to no booking what the bot is for, keeping nothing', async () => {
    const { token } = await connect(await login());
    const user = newUser();
    await deliver(token, await wrote(token, user, 'Здравствуйте'));
    expect(await saidTo(token, user)).toEqual([MAX_REPLIES.other]);
    expect((await env.DB.prepare('SELECT count(*) AS n FROM messages').first<{ n: number }>())!.n).toBe(0);
  });
});

describe('a booking’s personal data erased', () => {
  it('should take the guest’s MAX dialog and the conversation with it', async () => {
    const cookie = await login();
    const { token } = await connect(cookie);
    const { id, page } = await request();
    const user = await tie(token, page);
    await deliver(token, await wrote(token, user, 'Мой номер +7 900 123-45-67'));
    await env.DB.prepare(
      "UPDATE bookings SET created_at = '2020-01-01T00:00:00.000Z', check_in = '2020-01-10', check_out = '2020-01-12' WHERE id = ?",
    )
      .bind(id)
      .run();
    expect(await forgetOldBookings(env, '2021-01-01T00:00:00.000Z', '2021-01-01')).toBe(1);
    expect(await chatRow(id)).toBeNull();
    expect((await env.DB.prepare('SELECT count(*) AS n FROM messages').first<{ n: number }>())!.n).toBe(0);
  });
});
