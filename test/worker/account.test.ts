import { env } from 'cloudflare:test';
import { Secret, TOTP } from 'otpauth';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditEntry, SessionView, UserView } from '../../schema/account.ts';
import { LOGIN_THROTTLE } from '../../schema/constants.ts';
import type { Settings } from '../../schema/settings.ts';
import { MSG } from '../../schema/messages.ts';
import { ROUTE_RULES } from '../../worker/middleware/roles.ts';
import { forgetOldAudit, recordAudit } from '../../worker/queries/audit.ts';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  expectError,
  expectNoChange,
  freshIp,
  jsonRequest,
  login,
  resetDataWithAdmin,
  seedCabin,
  send,
  sessionCookieFrom,
  validBooking,
  type RequestOptions,
} from './helpers.ts';
import { sessionRoutes } from './session-routes.ts';

// The owner's account (docs/api.md «The owner's account»): two-factor sign-in with codes
// computed here as an authenticator app computes them, at the server's clock (vi.setSystemTime
// moves it on both runtimes); sessions; a manager's rights; and «Журнал».

beforeEach(resetDataWithAdmin);
afterEach(() => {
  vi.useRealTimers();
});

const T0 = new Date('2031-03-02T09:00:10Z').getTime();
const STEP_MS = 30_000;
const useClock = (ms = T0) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(ms);
};
/** The code an authenticator app shows for `secret` at `ms`. */
const codeAt = (secret: string, ms = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: ms });

const signIn = (body: Record<string, unknown>, opts: RequestOptions = {}) =>
  jsonRequest('POST', '/api/admin/login', body, opts);
const owner = { username: ADMIN_USERNAME, password: ADMIN_PASSWORD };

async function json<T>(res: Response, status = 200): Promise<T> {
  const text = await res.text();
  expect(res.status, text.slice(0, 300)).toBe(status);
  return JSON.parse(text) as T;
}

/** Sets up and turns on two-factor sign-in for the session's person; answers the secret and the recovery codes. */
async function turnOnTwoFactor(cookie: string, password = ADMIN_PASSWORD) {
  const { secret, otpauthUrl } = await json<{ secret: string; otpauthUrl: string }>(
    await send('POST', '/api/admin/2fa/setup', { cookie }),
  );
  const { recoveryCodes } = await json<{ recoveryCodes: string[] }>(
    await jsonRequest('POST', '/api/admin/2fa/enable', { code: codeAt(secret), password }, { cookie }),
  );
  return { secret, otpauthUrl, recoveryCodes };
}

const audit = async (cookie: string, query = '') =>
  json<AuditEntry[]>(await send('GET', `/api/admin/audit${query}`, { cookie }));
const sessionStatus = async (cookie: string) => (await send('GET', '/api/admin/session', { cookie })).status;

describe('two-factor sign-in', () => {
  it('should turn on with the first code and the password, then ask every sign-in for a code, each code taken once, a step of drift allowed', async () => {
    useClock();
    const cookie = await login();
    const other = await login();
    const { secret, otpauthUrl } = await json<{ secret: string; otpauthUrl: string }>(
      await send('POST', '/api/admin/2fa/setup', { cookie }),
    );
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
    expect(decodeURIComponent(url.pathname)).toContain(ADMIN_USERNAME);

    // Not on yet: sign-in asks for no code until the first code confirms the app holds the secret.
    expect(await json(await signIn(owner))).toEqual({ success: true, expiresAt: expect.any(Number) });
    await expectNoChange(async () => {
      await expectError(
        await jsonRequest(
          'POST',
          '/api/admin/2fa/enable',
          { code: codeAt(secret, T0 + 5 * STEP_MS), password: ADMIN_PASSWORD },
          { cookie },
        ),
        400,
        MSG.codeWrong,
      );
      await expectError(
        await jsonRequest(
          'POST',
          '/api/admin/2fa/enable',
          { code: codeAt(secret), password: 'not-the-password' },
          { cookie },
        ),
        400,
        MSG.currentPasswordWrong,
      );
    });
    const enabled = await json<{ recoveryCodes: string[] }>(
      await jsonRequest(
        'POST',
        '/api/admin/2fa/enable',
        { code: codeAt(secret), password: ADMIN_PASSWORD },
        { cookie },
      ),
    );
    expect(enabled.recoveryCodes).toHaveLength(10);
    expect(new Set(enabled.recoveryCodes).size).toBe(10);
    for (const code of enabled.recoveryCodes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    // Kept hashed; the session in use goes on, another one (perhaps not the owner's) ends.
    const stored = (await env.DB.prepare(
      'SELECT totp_secret, totp_pending_secret, recovery_codes FROM users WHERE id = 1',
    ).first<Record<string, string>>())!;
    expect(stored.totp_secret).toBe(secret);
    expect(stored.totp_pending_secret).toBeNull();
    for (const code of enabled.recoveryCodes) expect(stored.recovery_codes).not.toContain(code.replace('-', ''));
    expect(await json(await send('GET', '/api/admin/session', { cookie }))).toMatchObject({ twoFactor: true });
    expect(await sessionStatus(other)).toBe(401);
    await expectError(await send('POST', '/api/admin/2fa/setup', { cookie }), 409, MSG.twoFactorAlreadyOn);

    // The password alone opens nothing now: the answer asks for the code and sets no cookie.
    const asked = await signIn(owner);
    expect(await json(asked)).toEqual({ success: false, needsCode: true });
    expect(sessionCookieFrom(asked)).toBeUndefined();
    const wrongPassword = await signIn({ ...owner, password: 'wrong-password', code: codeAt(secret) });
    expect(await json(wrongPassword, 401)).toEqual({ success: false, error: MSG.loginFailed });

    // The code that turned it on was spent with it.
    expect(await json(await signIn({ ...owner, code: codeAt(secret) }), 401)).toEqual({
      success: false,
      needsCode: true,
      error: MSG.codeWrong,
    });
    vi.setSystemTime(T0 + STEP_MS);
    const code = codeAt(secret);
    const signedIn = await signIn({ ...owner, code: ` ${code.slice(0, 3)} ${code.slice(3)} ` });
    expect(await json(signedIn)).toEqual({ success: true, expiresAt: expect.any(Number) });
    expect(await sessionStatus(sessionCookieFrom(signedIn)!)).toBe(200);
    const again = await signIn({ ...owner, code });
    expect(await json(again, 401)).toMatchObject({ needsCode: true, error: MSG.codeWrong });
    expect(sessionCookieFrom(again)).toBeUndefined();

    // A phone a step ahead is understood; a code of a step before one already used is not.
    vi.setSystemTime(T0 + 3 * STEP_MS);
    expect((await signIn({ ...owner, code: codeAt(secret, T0 + 4 * STEP_MS) })).status).toBe(200);
    expect((await signIn({ ...owner, code: codeAt(secret) })).status).toBe(401);
    vi.setSystemTime(T0 + 6 * STEP_MS);
    expect((await signIn({ ...owner, code: codeAt(secret, T0 + 3 * STEP_MS) })).status).toBe(401);
  });

  it('should throttle code guessing from any address like passwords, and take a recovery code once, in any case and spacing', async () => {
    useClock();
    const cookie = await login();
    const { secret, recoveryCodes } = await turnOnTwoFactor(cookie);
    vi.setSystemTime(T0 + STEP_MS);

    for (let i = 0; i < LOGIN_THROTTLE.code.free; i++) {
      expect((await signIn({ ...owner, code: String(100000 + i) }, { ip: freshIp() })).status, `guess ${i + 1}`).toBe(
        401,
      );
    }
    await expectNoChange(async () => {
      const refused = await signIn({ ...owner, code: codeAt(secret) }, { ip: freshIp() });
      await expectError(refused, 429, MSG.codeThrottled);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(sessionCookieFrom(refused)).toBeUndefined();
    });
    vi.setSystemTime(T0 + STEP_MS + LOGIN_THROTTLE.code.firstWaitMs);
    expect((await signIn({ ...owner, code: codeAt(secret) })).status).toBe(200);

    const typed = ` ${recoveryCodes[0]!.toUpperCase().replace('-', ' - ')} `;
    const byRecovery = await signIn({ ...owner, code: typed });
    expect(await json(byRecovery)).toEqual({ success: true, expiresAt: expect.any(Number) });
    expect((await signIn({ ...owner, code: recoveryCodes[0] })).status).toBe(401);
    const left = (await env.DB.prepare('SELECT recovery_codes FROM users WHERE id = 1').first<{
      recovery_codes: string;
    }>())!.recovery_codes;
    expect(JSON.parse(left)).toHaveLength(9);
    const entries = await audit(sessionCookieFrom(byRecovery)!, '?kind=account');
    expect(entries.map((e) => e.description)).toContain('Вход по коду восстановления');
    expect(
      entries.filter((e) => e.description === 'Неверный код' && e.outcome === 'failed').length,
    ).toBeGreaterThanOrEqual(LOGIN_THROTTLE.code.free);
  });

  it('should give new recovery codes for old with the password and a code, each old one then refused, and never with the cookie alone', async () => {
    useClock();
    const cookie = await login();
    const { secret, recoveryCodes: old } = await turnOnTwoFactor(cookie);
    vi.setSystemTime(T0 + STEP_MS);
    const renew = (body: Record<string, unknown>) =>
      jsonRequest('POST', '/api/admin/2fa/recovery-codes', body, { cookie });
    await expectNoChange(async () => {
      await expectError(await renew({ password: ADMIN_PASSWORD }), 400, MSG.codeRequired);
      await expectError(await renew({ code: codeAt(secret) }), 400, MSG.currentPasswordRequired);
      await expectError(await renew({ code: codeAt(secret), password: 'guess-1' }), 400, MSG.currentPasswordWrong);
      await expectError(await renew({ code: '000000', password: ADMIN_PASSWORD }), 400, MSG.codeWrong);
    });

    // A recovery code is a code too: the person who spent some of the paper renews it with one of them.
    const { recoveryCodes } = await json<{ recoveryCodes: string[] }>(
      await renew({ code: old[0], password: ADMIN_PASSWORD }),
    );
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    for (const code of recoveryCodes) expect(old).not.toContain(code);
    // Every old code is refused at sign-in, each new one is taken once.
    for (const code of [old[1]!, old[9]!])
      expect((await signIn({ ...owner, code }, { ip: freshIp() })).status, code).toBe(401);
    expect(await json(await signIn({ ...owner, code: recoveryCodes[4] }))).toMatchObject({ success: true });
    expect((await signIn({ ...owner, code: recoveryCodes[4] }, { ip: freshIp() })).status).toBe(401);
    expect((await audit(cookie, '?kind=account')).map((e) => e.description)).toContain('Новые коды восстановления');

    // With two-factor off there is nothing to renew.
    vi.setSystemTime(T0 + 3 * STEP_MS);
    expect(
      await json(await jsonRequest('POST', '/api/admin/2fa/disable', { code: codeAt(secret) }, { cookie })),
    ).toEqual({ success: true });
    await expectError(
      await renew({ code: codeAt(secret, T0 + 4 * STEP_MS), password: ADMIN_PASSWORD }),
      409,
      MSG.twoFactorOff,
    );
  });

  it('should not turn off, nor let the login or password change, with a stolen session cookie alone', async () => {
    useClock();
    const cookie = await login();
    const { secret, recoveryCodes } = await turnOnTwoFactor(cookie);
    vi.setSystemTime(T0 + STEP_MS);
    await expectNoChange(async () => {
      await expectError(await jsonRequest('POST', '/api/admin/2fa/disable', {}, { cookie }), 400, MSG.codeRequired);
      await expectError(
        await jsonRequest('POST', '/api/admin/2fa/disable', { code: '000000' }, { cookie }),
        400,
        MSG.codeWrong,
      );
      await expectError(
        await jsonRequest('POST', '/api/admin/2fa/disable', { code: 'aaaaa-aaaaa' }, { cookie }),
        400,
        MSG.codeWrong,
      );
      const change = { username: 'thief', newPassword: 'thief-password', currentPassword: ADMIN_PASSWORD };
      await expectError(await jsonRequest('PUT', '/api/admin/credentials', change, { cookie }), 400, MSG.codeRequired);
      await expectError(
        await jsonRequest('PUT', '/api/admin/credentials', { ...change, code: '000000' }, { cookie }),
        400,
        MSG.codeWrong,
      );
      await expectError(
        await jsonRequest(
          'PUT',
          '/api/admin/credentials',
          { ...change, currentPassword: 'guess-1', code: codeAt(secret) },
          { cookie },
        ),
        400,
        MSG.currentPasswordWrong,
      );
    });
    // The owner, with the password and a code, may.
    const changed = await jsonRequest(
      'PUT',
      '/api/admin/credentials',
      {
        username: ADMIN_USERNAME,
        newPassword: 'new-password-9',
        currentPassword: ADMIN_PASSWORD,
        code: codeAt(secret),
      },
      { cookie },
    );
    expect(await json(changed)).toEqual({ success: true, username: ADMIN_USERNAME, passwordChanged: true });
    expect(
      await json(await jsonRequest('POST', '/api/admin/2fa/disable', { code: recoveryCodes[3] }, { cookie })),
    ).toEqual({ success: true });
    expect(await json(await send('GET', '/api/admin/session', { cookie }))).toMatchObject({ twoFactor: false });
    expect(await json(await signIn({ username: ADMIN_USERNAME, password: 'new-password-9' }))).toMatchObject({
      success: true,
    });
    await expectError(
      await jsonRequest('POST', '/api/admin/2fa/disable', { code: codeAt(secret) }, { cookie }),
      409,
      MSG.twoFactorOff,
    );
    await expectError(
      await jsonRequest(
        'POST',
        '/api/admin/2fa/enable',
        { code: codeAt(secret), password: 'new-password-9' },
        { cookie },
      ),
      409,
      MSG.twoFactorNotSetUp,
    );
  });
});

describe('sessions', () => {
  it('should list the person’s sessions without tokens, end one or all others, and end the others when the password changes', async () => {
    useClock();
    const signInAs = async (userAgent: string) => {
      const res = await signIn(owner, { headers: { 'user-agent': userAgent }, ip: '203.0.113.9' });
      expect(res.status).toBe(200);
      return sessionCookieFrom(res)!;
    };
    const phone = await signInAs('Mozilla/5.0 (iPhone) Safari');
    vi.setSystemTime(T0 + 1000);
    const laptop = await signInAs('Mozilla/5.0 (Windows) Firefox');
    const tablet = await signInAs('Mozilla/5.0 (iPad) Safari');

    const list = await json<SessionView[]>(await send('GET', '/api/admin/sessions', { cookie: phone }));
    expect(list).toHaveLength(3);
    expect(list.filter((s) => s.current).map((s) => s.userAgent)).toEqual(['Mozilla/5.0 (iPhone) Safari']);
    for (const s of list) {
      expect(s).toEqual({
        id: expect.any(Number),
        username: ADMIN_USERNAME,
        userAgent: expect.any(String),
        ip: '203.0.113.9',
        createdAt: expect.any(Number),
        lastSeenAt: expect.any(Number),
        current: expect.any(Boolean),
      });
    }
    const text = JSON.stringify(list);
    for (const cookie of [phone, laptop, tablet]) expect(text).not.toContain(cookie.split('=')[1]!);
    const idOf = (ua: string) => list.find((s) => s.userAgent.includes(ua))!.id;

    // «Last seen» moves with use, at most once a minute.
    vi.setSystemTime(T0 + 2 * 60_000);
    expect(await sessionStatus(laptop)).toBe(200);
    vi.setSystemTime(T0 + 2 * 60_000 + 30_000);
    expect(await sessionStatus(laptop)).toBe(200);
    const seen = (await json<SessionView[]>(await send('GET', '/api/admin/sessions', { cookie: phone }))).find(
      (s) => s.id === idOf('Windows'),
    )!;
    expect(seen.lastSeenAt).toBe(T0 + 2 * 60_000);

    expect(await json(await send('DELETE', `/api/admin/sessions/${idOf('Windows')}`, { cookie: phone }))).toEqual({
      success: true,
    });
    expect(await sessionStatus(laptop)).toBe(401);
    await expectError(
      await send('DELETE', `/api/admin/sessions/${idOf('Windows')}`, { cookie: phone }),
      404,
      MSG.sessionNotFound,
    );
    expect(await json(await send('DELETE', '/api/admin/sessions', { cookie: phone }))).toEqual({
      success: true,
      ended: 1,
    });
    expect(await sessionStatus(tablet)).toBe(401);
    expect(await sessionStatus(phone)).toBe(200);

    const another = await login();
    const changed = await jsonRequest(
      'PUT',
      '/api/admin/credentials',
      { username: ADMIN_USERNAME, newPassword: 'changed-pass-1', currentPassword: ADMIN_PASSWORD },
      { cookie: phone },
    );
    expect(changed.status).toBe(200);
    expect(await sessionStatus(another)).toBe(401);
    expect(await sessionStatus(phone)).toBe(200);
    expect(
      (await json<SessionView[]>(await send('GET', '/api/admin/sessions', { cookie: phone }))).map((s) => s.current),
    ).toEqual([true]);
  });
});

describe('a manager', () => {
  it('should handle requests but get 403 «Недостаточно прав» on the owner’s routes, every refusal recorded, and be ended by the owner', async () => {
    const ownerCookie = await login();
    const created = await json<UserView>(
      await jsonRequest(
        'POST',
        '/api/admin/users',
        { username: 'menedzher', password: 'manager-pass-1', role: 'manager' },
        { cookie: ownerCookie },
      ),
      201,
    );
    expect(created).toEqual({
      id: expect.any(Number),
      username: 'menedzher',
      role: 'manager',
      twoFactor: false,
      createdAt: expect.any(Number),
      cabinIds: [],
      linkCreatedAt: null,
      messengers: [],
    });
    await expectError(
      await jsonRequest(
        'POST',
        '/api/admin/users',
        { username: 'menedzher', password: 'other-pass-1', role: 'manager' },
        { cookie: ownerCookie },
      ),
      409,
      MSG.usernameTaken,
    );
    await expectError(
      await jsonRequest(
        'POST',
        '/api/admin/users',
        { username: 'kto-to', password: 'other-pass-1', role: 'admin' },
        { cookie: ownerCookie },
      ),
      400,
      MSG.roleInvalid,
    );
    expect(
      (await json<UserView[]>(await send('GET', '/api/admin/users', { cookie: ownerCookie }))).map((u) => [
        u.username,
        u.role,
      ]),
    ).toEqual([
      [ADMIN_USERNAME, 'owner'],
      ['menedzher', 'manager'],
    ]);
    const manager = await login({ username: 'menedzher', password: 'manager-pass-1' });
    expect(await json(await send('GET', '/api/admin/session', { cookie: manager }))).toMatchObject({
      username: 'menedzher',
      role: 'manager',
    });

    // What a manager does: requests, the calendar, reviews, the site's texts.
    const cabin = await seedCabin();
    const booking = await json<{ id: number }>(await jsonRequest('POST', '/api/bookings', validBooking(cabin.id)), 201);
    expect(
      (await jsonRequest('PUT', `/api/admin/bookings/${booking.id}`, { status: 'confirmed' }, { cookie: manager }))
        .status,
    ).toBe(200);
    expect((await send('GET', '/api/admin/occupancy', { cookie: manager })).status).toBe(200);
    expect((await send('GET', '/api/admin/channels', { cookie: manager })).status).toBe(200);
    expect((await jsonRequest('PUT', '/api/settings', { heroTitle: 'Море рядом' }, { cookie: manager })).status).toBe(
      200,
    );
    // A form that sends back a payment setting unchanged still saves.
    expect(
      (
        await jsonRequest(
          'PUT',
          '/api/settings',
          { heroTitle: 'Море совсем рядом', bookingMode: 'request' },
          { cookie: manager },
        )
      ).status,
    ).toBe(200);

    const refused: [string, () => Promise<Response>][] = [
      [
        'the booking mode',
        () =>
          jsonRequest('PUT', '/api/settings', { heroTitle: 'Тихо', bookingMode: 'prepayment' }, { cookie: manager }),
      ],
      [
        'the cancellation policy',
        () =>
          jsonRequest(
            'PUT',
            '/api/settings',
            { cancellation: { freeUntilDays: 0, keepPercent: 100 } },
            { cookie: manager },
          ),
      ],
      ['a refund', () => send('POST', `/api/admin/bookings/${booking.id}/refund`, { cookie: manager })],
      [
        'connecting Avito',
        () =>
          jsonRequest(
            'PUT',
            '/api/admin/channels/avito',
            { clientId: 'a', clientSecret: 'b', userId: 1 },
            { cookie: manager },
          ),
      ],
      ['disconnecting Avito', () => send('DELETE', '/api/admin/channels/avito', { cookie: manager })],
      [
        'a cabin’s Avito listing',
        () => jsonRequest('PUT', `/api/admin/cabins/${cabin.id}/channels`, { avitoItemId: null }, { cookie: manager }),
      ],
      [
        'a cabin’s calendar feeds',
        () => jsonRequest('PUT', `/api/admin/cabins/${cabin.id}/feeds`, { feeds: [] }, { cookie: manager }),
      ],
      [
        'the MAX bot',
        () => jsonRequest('PUT', '/api/admin/max', { token: 'stolen-token-0123456789' }, { cookie: manager }),
      ],
      ['the people', () => send('GET', '/api/admin/users', { cookie: manager })],
      [
        'adding a person',
        () =>
          jsonRequest(
            'POST',
            '/api/admin/users',
            { username: 'drug', password: 'friend-pass-1', role: 'owner' },
            { cookie: manager },
          ),
      ],
      ['deleting the owner', () => send('DELETE', '/api/admin/users/1', { cookie: manager })],
      ['the admin path', () => jsonRequest('PUT', '/api/admin/path', { path: 'moy-vhod' }, { cookie: manager })],
      ['everyone’s sessions', () => send('GET', '/api/admin/sessions?all=1', { cookie: manager })],
      ['the record', () => send('GET', '/api/admin/audit', { cookie: manager })],
    ];
    for (const [label, call] of refused) {
      await expectNoChange(async () => {
        const res = await call();
        expect(res.status, label).toBe(403);
        expect(await res.json(), label).toEqual({ error: MSG.forbidden });
      });
    }
    // Another person's session is not theirs to end.
    const ownerSessions = await json<SessionView[]>(await send('GET', '/api/admin/sessions', { cookie: ownerCookie }));
    await expectError(
      await send('DELETE', `/api/admin/sessions/${ownerSessions[0]!.id}`, { cookie: manager }),
      404,
      MSG.sessionNotFound,
    );

    // The owner sees everyone's sessions and ends the manager's.
    const all = await json<SessionView[]>(await send('GET', '/api/admin/sessions?all=1', { cookie: ownerCookie }));
    const managers = all.filter((s) => s.username === 'menedzher');
    expect(managers).toHaveLength(1);
    expect(await json(await send('DELETE', `/api/admin/sessions/${managers[0]!.id}`, { cookie: ownerCookie }))).toEqual(
      { success: true },
    );
    expect(await sessionStatus(manager)).toBe(401);

    // «Журнал»: both people's writes, each refusal, no secret.
    const entries = await audit(ownerCookie);
    const confirm = entries.find((e) => e.action === 'PUT /api/admin/bookings/:id' && e.actor === 'menedzher');
    expect(confirm).toMatchObject({
      outcome: 'ok',
      kind: 'bookings',
      target: String(booking.id),
      before: { status: 'new' },
      after: { status: 'confirmed' },
    });
    expect(entries.find((e) => e.action === 'POST /api/admin/users' && e.outcome === 'ok')).toMatchObject({
      actor: ADMIN_USERNAME,
      target: String(created.id),
      after: { username: 'menedzher', password: '***', role: 'manager' },
    });
    // The ended session is named by whose it was and the device it was used from.
    expect(entries.find((e) => e.action === 'DELETE /api/admin/sessions/:id' && e.outcome === 'ok')).toMatchObject({
      actor: ADMIN_USERNAME,
      target: String(managers[0]!.id),
      before: { username: 'menedzher', userAgent: managers[0]!.userAgent, ip: managers[0]!.ip },
    });
    const denied = entries.filter((e) => e.actor === 'menedzher' && e.outcome === 'denied');
    expect(denied).toHaveLength(refused.length);
    expect(
      denied.find(
        (e) => e.action === 'PUT /api/settings' && (e.after as Partial<Settings> | null)?.bookingMode === 'prepayment',
      ),
    ).toBeDefined();
    expect(denied.map((e) => e.action)).toEqual(
      expect.arrayContaining([
        'PUT /api/admin/channels/avito',
        'POST /api/admin/bookings/:id/refund',
        'GET /api/admin/audit',
        'GET /api/admin/users',
      ]),
    );
    expect(
      entries
        .filter((e) => e.action === 'POST /api/admin/login' && e.outcome === 'ok')
        .map((e) => e.actor)
        .sort(),
    ).toEqual([ADMIN_USERNAME, 'menedzher']);
    const everything = JSON.stringify(entries);
    for (const secret of [ADMIN_PASSWORD, 'manager-pass-1', 'stolen-token-0123456789'])
      expect(everything).not.toContain(secret);
    for (const cookie of [ownerCookie, manager]) expect(everything).not.toContain(cookie.split('=')[1]!);

    // The person goes, with their sessions; the last owner stays.
    const again = await login({ username: 'menedzher', password: 'manager-pass-1' });
    expect(await json(await send('DELETE', `/api/admin/users/${created.id}`, { cookie: ownerCookie }))).toEqual({
      success: true,
    });
    expect(await sessionStatus(again)).toBe(401);
    expect((await signIn({ username: 'menedzher', password: 'manager-pass-1' })).status).toBe(401);
    await expectError(
      await send('DELETE', `/api/admin/users/${created.id}`, { cookie: ownerCookie }),
      404,
      MSG.userNotFound,
    );
    await expectNoChange(async () => {
      await expectError(await send('DELETE', '/api/admin/users/1', { cookie: ownerCookie }), 409, MSG.lastOwner);
    });
  });
});

describe('the record', () => {
  it('should keep each change with the values before and after, filter by person, kind and day, page by `before`, and offer no way to edit or delete it', async () => {
    // 23:50 in Moscow on 10 April, then 00:10 on the 11th: one UTC date, two Moscow days.
    useClock(new Date('2031-04-10T20:50:00Z').getTime());
    const cookie = await login();
    const cabin = await seedCabin();
    expect((await jsonRequest('PUT', `/api/cabins/${cabin.id}`, { name: 'Дом с верандой' }, { cookie })).status).toBe(
      200,
    );
    expect((await jsonRequest('PUT', '/api/settings', { heroTitle: 'Весна на Каспии' }, { cookie })).status).toBe(200);
    vi.setSystemTime(new Date('2031-04-10T21:10:00Z').getTime());
    expect(
      (
        await jsonRequest(
          'POST',
          '/api/admin/users',
          { username: 'pomoshnik', password: 'helper-pass-1', role: 'manager' },
          { cookie },
        )
      ).status,
    ).toBe(201);
    expect((await send('DELETE', `/api/cabins/${cabin.id}`, { cookie })).status).toBe(200);

    const entries = await audit(cookie);
    expect(entries.map((e) => e.id)).toEqual([...entries.map((e) => e.id)].sort((a, b) => b - a));
    expect(entries.find((e) => e.action === 'PUT /api/cabins/:id')).toMatchObject({
      actor: ADMIN_USERNAME,
      kind: 'cabins',
      target: String(cabin.id),
      outcome: 'ok',
      before: { name: 'Домик у моря' },
      after: { name: 'Дом с верандой' },
    });
    expect(entries.find((e) => e.action === 'PUT /api/settings')).toMatchObject({
      kind: 'settings',
      before: { heroTitle: expect.any(String) },
      after: { heroTitle: 'Весна на Каспии' },
    });
    expect(entries.find((e) => e.action === 'DELETE /api/cabins/:id')).toMatchObject({
      before: { id: cabin.id, name: 'Дом с верандой' },
    });
    expect(entries[0]).toMatchObject({
      at: expect.any(Number),
      ip: expect.any(String),
      description: expect.any(String),
    });

    expect((await audit(cookie, '?kind=cabins')).map((e) => e.action)).toEqual([
      'DELETE /api/cabins/:id',
      'PUT /api/cabins/:id',
    ]);
    expect(await audit(cookie, '?actor=pomoshnik')).toEqual([]);
    expect((await audit(cookie, `?actor=${ADMIN_USERNAME}`)).length).toBe(entries.length);
    // Days are Moscow's: 10 April holds the changes before midnight there only.
    expect((await audit(cookie, '?from=2031-04-10&to=2031-04-10')).map((e) => e.action).sort()).toEqual([
      'POST /api/admin/login',
      'PUT /api/cabins/:id',
      'PUT /api/settings',
    ]);
    expect(await audit(cookie, '?from=2031-04-12')).toEqual([]);
    const first = await audit(cookie, '?limit=2');
    const next = await audit(cookie, `?limit=2&before=${first[1]!.id}`);
    expect(first.map((e) => e.id)).toEqual(entries.slice(0, 2).map((e) => e.id));
    expect(next.map((e) => e.id)).toEqual(entries.slice(2, 4).map((e) => e.id));
    await expectError(await send('GET', '/api/admin/audit?kind=everything', { cookie }), 400);
    await expectError(
      await send('GET', '/api/admin/audit?from=2031-04-12&to=2031-04-10', { cookie }),
      400,
      MSG.datesOrder,
    );

    const count = async () => (await env.DB.prepare('SELECT count(*) AS n FROM audit_log').first<{ n: number }>())!.n;
    const before = await count();
    for (const [method, path] of [
      ['DELETE', '/api/admin/audit'],
      ['PUT', '/api/admin/audit'],
      ['POST', '/api/admin/audit'],
      ['DELETE', `/api/admin/audit/${entries[0]!.id}`],
      ['PUT', `/api/admin/audit/${entries[0]!.id}`],
    ]) {
      await expectError(
        await jsonRequest(method!, path!, method === 'DELETE' ? undefined : { actor: 'никто' }, { cookie }),
        404,
      );
    }
    expect(await count()).toBe(before);
  });

  it('should forget entries older than the cutoff the schedule gives, and only those', async () => {
    const entry = {
      actorId: 1,
      actor: ADMIN_USERNAME,
      ip: '203.0.113.1',
      action: 'PUT /api/settings',
      kind: 'settings' as const,
      description: 'Изменены настройки',
    };
    useClock(new Date('2030-01-01T00:00:00Z').getTime());
    await recordAudit(env, entry);
    vi.setSystemTime(new Date('2030-06-01T00:00:00Z').getTime());
    await recordAudit(env, { ...entry, after: { password: 'p', nested: [{ apiKey: 'k', ok: 1 }], vatCode: 1 } });
    expect(await forgetOldAudit(env, new Date('2030-03-01T00:00:00Z').getTime())).toBe(1);
    const rows = (await env.DB.prepare('SELECT at, after FROM audit_log').all<{ at: number; after: string }>()).results;
    expect(rows).toEqual([
      {
        at: new Date('2030-06-01T00:00:00Z').getTime(),
        after: JSON.stringify({ password: '***', nested: [{ apiKey: '***', ok: 1 }], vatCode: 1 }),
      },
    ]);
  });
});

describe('the role table', () => {
  it('should classify every admin route the API serves, and no route it does not serve', async () => {
    expect((await sessionRoutes()).map((r) => r.key).sort()).toEqual(Object.keys(ROUTE_RULES).sort());
    // The owner's alone, by docs/api.md: payment, channel and account settings, people, credentials, the admin path.
    for (const key of [
      'POST /api/admin/bookings/:id/refund',
      'PUT /api/admin/channels/avito',
      'DELETE /api/admin/channels/avito',
      'PUT /api/admin/cabins/:id/channels',
      'GET /api/admin/users',
      'POST /api/admin/users',
      'DELETE /api/admin/users/:id',
      'POST /api/admin/users/:id/link',
      'DELETE /api/admin/users/:id/link',
      'PUT /api/admin/path',
      'PUT /api/admin/max',
      'GET /api/admin/audit',
      'GET /api/admin/indexnow',
    ]) {
      expect(ROUTE_RULES[key]?.access, key).toBe('owner');
    }
  });
});
