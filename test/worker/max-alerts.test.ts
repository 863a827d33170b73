import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_REPLIES, type MaxStatus } from '../../schema/max.ts';
import { MSG } from '../../schema/messages.ts';
import type { RecordedRequest } from '../../stand-ins/max-api.ts';
import {
  expectError,
  jsonRequest,
  login,
  resetDataWithAdmin,
  seedCabin,
  send,
  validBooking,
  type Booked,
  jsonOf,
} from './helpers.ts';

// Owner alerts through MAX, against the MAX stand-in on 127.0.0.1
// (stand-ins/max-api.ts) that the app under test knows as MAX_API_URL.

beforeEach(resetDataWithAdmin);

const STAND_IN_USERNAME = 'kaspiy_alerts_bot';
const OWNER = { userId: 7_000_123, chatId: 8_000_456 };

const standIn = (path: string, init?: RequestInit) => fetch(`${env.MAX_API_URL}${path}`, init);
/** What the stand-in received with this token (each test has a token of its own). */
async function sentWith(token: string): Promise<RecordedRequest[]> {
  const all = (await (await standIn('/_stand-in/requests')).json()) as RecordedRequest[];
  return all.filter((r) => r.authorization === token);
}
/** The owner opens the bot by a start link and presses «Начать». */
const pressStart = (token: string, payload: string, who = OWNER) =>
  standIn('/_stand-in/start', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, payload, ...who }),
  });

const newToken = () => `tok-${crypto.randomUUID()}`;
const payloadOf = (link: string) => new URL(link).searchParams.get('start')!;

async function until<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function status(res: Response, expected = 200): Promise<MaxStatus> {
  const text = await res.text();
  expect(res.status, text).toBe(expected);
  return JSON.parse(text) as MaxStatus;
}

/** Signs in, sets the token and presses «Начать» by the panel's link, then checks: a connected bot. */
async function connect(cookie: string, token = newToken()) {
  const set = await status(await jsonRequest('PUT', '/api/admin/max', { token }, { cookie }));
  await pressStart(token, payloadOf(set.link!));
  const checked = await status(await send('POST', '/api/admin/max/check', { cookie }));
  expect(checked.connected).toBe(true);
  return token;
}

describe('MAX alerts: the admin side', () => {
  it.each([
    ['GET', '/api/admin/max'],
    ['PUT', '/api/admin/max'],
    ['DELETE', '/api/admin/max'],
    ['POST', '/api/admin/max/check'],
    ['POST', '/api/admin/max/test'],
  ])('should refuse %s %s without an admin session (401)', async (method, path) => {
    const res = method === 'PUT' ? await jsonRequest(method, path, { token: newToken() }) : await send(method, path);
    await expectError(res, 401, MSG.unauthorized);
  });

  it('should keep nothing when a visitor tries to set the token', async () => {
    const token = newToken();
    await jsonRequest('PUT', '/api/admin/max', { token });
    const cookie = await login();
    expect((await status(await send('GET', '/api/admin/max', { cookie }))).configured).toBe(false);
    expect(await sentWith(token)).toEqual([]);
  });

  it('should say nothing is set up before a token is saved', async () => {
    const cookie = await login();
    expect(await status(await send('GET', '/api/admin/max', { cookie }))).toEqual({
      configured: false,
      tokenEnding: null,
      botName: null,
      botUsername: null,
      link: null,
      connected: false,
      connectedAt: null,
    });
    await expectError(await send('POST', '/api/admin/max/check', { cookie }), 409, MSG.maxNotConfigured);
    await expectError(await send('POST', '/api/admin/max/test', { cookie }), 409, MSG.maxNotConnected);
  });

  it("should connect the owner: token → the bot's start link → «Начать» → check → «Подключено» → a test message", async () => {
    const cookie = await login();
    const token = newToken();
    const set = await status(await jsonRequest('PUT', '/api/admin/max', { token }, { cookie }));
    expect(set).toMatchObject({
      configured: true,
      tokenEnding: token.slice(-4),
      botUsername: STAND_IN_USERNAME,
      botName: 'Каспий — уведомления',
      connected: false,
    });
    // The link opens the bot from GET /me with a secret payload MAX hands back on «Начать».
    expect(set.link).toMatch(new RegExp(`^https://max\\.ru/${STAND_IN_USERNAME}\\?start=[0-9a-f]{48}$`));
    expect(await status(await send('GET', '/api/admin/max', { cookie }))).toEqual(set);

    // Not pressed yet: the panel is told what to do.
    await expectError(await send('POST', '/api/admin/max/check', { cookie }), 409, MSG.maxNotStarted);

    // Someone who guessed the bot but not the link is not taken for the owner.
    await pressStart(token, 'not-the-payload', { userId: 666, chatId: 667 });
    await pressStart(token, payloadOf(set.link!));
    const checked = await status(await send('POST', '/api/admin/max/check', { cookie }));
    expect(checked).toMatchObject({ configured: true, connected: true, link: set.link });
    expect(Date.parse(checked.connectedAt!)).not.toBeNaN();
    expect(await status(await send('GET', '/api/admin/max', { cookie }))).toEqual(checked);

    const test = await send('POST', '/api/admin/max/test', { cookie });
    expect(test.status).toBe(200);
    expect(await test.json()).toEqual({ sent: true });
    const sent = (await sentWith(token)).filter((r) => r.method === 'POST' && r.path.startsWith('/messages'));
    // The same bot serves guests: the stranger's «Начать» with a start code it never gave is
    // answered as a guest's stale link would be, and nothing else went to them.
    expect(sent.filter((r) => r.path === '/messages?user_id=666').map((r) => r.body?.text)).toEqual([
      MAX_REPLIES.stale,
    ]);
    const messages = sent.filter((r) => r.path !== '/messages?user_id=666');
    expect(messages).toHaveLength(1);
    expect(messages[0]!.path).toBe(`/messages?user_id=${OWNER.userId}`);
    expect(messages[0]!.body?.text).toContain('Проверка связи');

    // Every call carried the token in the Authorization header, none in the address.
    const calls = await sentWith(token);
    expect(calls.map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual(
      expect.arrayContaining(['GET /me', 'GET /updates', 'POST /messages']),
    );
    for (const r of calls) expect(r.path).not.toContain(token);
  });

  it('should refuse a token MAX does not accept with a clear 400 and keep the one that works', async () => {
    const cookie = await login();
    const good = await connect(cookie);
    const res = await jsonRequest('PUT', '/api/admin/max', { token: `bad-${crypto.randomUUID()}` }, { cookie });
    await expectError(res, 400, MSG.maxTokenRejected);
    expect(await status(await send('GET', '/api/admin/max', { cookie }))).toMatchObject({
      configured: true,
      connected: true,
      tokenEnding: good.slice(-4),
    });
  });

  it.each([
    ['an empty token', { token: '  ' }, MSG.maxTokenRequired],
    ['no token', {}, MSG.maxTokenRequired],
    ['a token with spaces', { token: 'abc def ghi' }, MSG.maxTokenInvalid],
    ['a token of two lines', { token: 'abc\r\nX-Evil: 1' }, MSG.maxTokenInvalid],
  ])('should refuse %s (400) without asking MAX', async (_, body, message) => {
    const cookie = await login();
    await expectError(await jsonRequest('PUT', '/api/admin/max', body, { cookie }), 400, message);
    expect((await status(await send('GET', '/api/admin/max', { cookie }))).configured).toBe(false);
  });

  it('should start over with a new link when another token is set, and forget the bot on DELETE', async () => {
    const cookie = await login();
    const first = await connect(cookie);
    const again = await status(await jsonRequest('PUT', '/api/admin/max', { token: first }, { cookie }));
    expect(again.connected).toBe(true);
    const other = await status(await jsonRequest('PUT', '/api/admin/max', { token: newToken() }, { cookie }));
    expect(other).toMatchObject({ connected: false, connectedAt: null });
    expect(other.link).not.toBe(again.link);
    expect(await status(await send('DELETE', '/api/admin/max', { cookie }))).toMatchObject({
      configured: false,
      link: null,
    });
    expect((await status(await send('GET', '/api/admin/max', { cookie }))).configured).toBe(false);
  });

  it('should never give the token to the public settings, the admin settings or the status', async () => {
    const cookie = await login();
    const token = await connect(cookie);
    for (const [path, c] of [
      ['/api/settings', undefined],
      ['/api/admin/settings', cookie],
      ['/api/admin/max', cookie],
    ] as const) {
      const res = await send('GET', path, { cookie: c });
      expect(res.status).toBe(200);
      expect(await res.text()).not.toContain(token);
    }
  });
});

describe('MAX alerts: what the owner is told', () => {
  it('should bring a new booking request to the owner in MAX, the token in the header and not in the address', async () => {
    const cookie = await login();
    const token = await connect(cookie);
    const cabin = await seedCabin({ name: 'Домик у маяка' });
    const res = await jsonRequest(
      'POST',
      '/api/bookings',
      validBooking(cabin.id, { name: 'Зарина', phone: '+7 928 111-22-33' }),
    );
    const { id } = await jsonOf<Booked>(res, 201);
    const notice = await until('the booking notice in MAX', async () =>
      (await sentWith(token)).find((r) => r.method === 'POST' && r.body?.text?.includes(`Новая заявка №${id}`)),
    );
    expect(notice.path).toBe(`/messages?user_id=${OWNER.userId}`);
    expect(notice.path).not.toContain(token);
    expect(notice.body!.text).toContain('«Домик у маяка»');
    expect(notice.body!.text).toContain('Зарина, +7 928 111-22-33');
  }, 20_000);

  it('should tell nobody in MAX while the bot is set but not yet connected', async () => {
    const cookie = await login();
    const token = newToken();
    await status(await jsonRequest('PUT', '/api/admin/max', { token }, { cookie }));
    const cabin = await seedCabin();
    expect((await jsonRequest('POST', '/api/bookings', validBooking(cabin.id))).status).toBe(201);
    await new Promise((r) => setTimeout(r, 500));
    expect((await sentWith(token)).filter((r) => r.path.startsWith('/messages'))).toEqual([]);
  });
});
