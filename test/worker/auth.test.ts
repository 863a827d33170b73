import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ADMIN_SESSION_MS, LOGIN_THROTTLE, RESERVED_PATHS } from '../../schema/constants.ts';
import { MSG } from '../../schema/messages.ts';
import app from '../../worker/index.ts';
import { hashPassword, PBKDF2_ITERATIONS, sha256Hex, verifyPassword } from '../../worker/lib/password.ts';
import { getAdminPath, setAdminPath } from '../../worker/queries/admin.ts';
import { createSession, findSession } from '../../worker/queries/sessions.ts';
import { ensureOwner } from '../../worker/queries/users.ts';
import {
  ADMIN_PASSWORD,
  ADMIN_USERNAME,
  adminRow,
  client,
  expectError,
  expectNoChange,
  freshIp,
  iterationsOf,
  jsonRequest,
  login,
  resetData,
  send,
  sessionCookieFrom,
  SESSION_COOKIE,
  url,
} from './helpers.ts';

beforeEach(resetData);
afterEach(() => {
  vi.useRealTimers();
});

const sessionStatus = async (cookie: string) => (await send('GET', '/api/admin/session', { cookie })).status;

describe('password hashing', () => {
  it('should use at most 100,000 PBKDF2 iterations, the most Workers allow', () => {
    expect(PBKDF2_ITERATIONS).toBeLessThanOrEqual(100_000);
    expect(PBKDF2_ITERATIONS).toBeGreaterThanOrEqual(10_000);
  });

  it('should store a salted hash that verifies the right password only', async () => {
    const a = await hashPassword('correct horse');
    const b = await hashPassword('correct horse');
    expect(a).toMatch(/^pbkdf2-sha256\$\d+\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(iterationsOf(a)).toBeLessThanOrEqual(100_000);
    expect(a).not.toBe(b);
    expect(a).not.toContain('correct horse');
    expect(await verifyPassword('correct horse', a)).toBe(true);
    expect(await verifyPassword('correct horsE', a)).toBe(false);
    expect(await verifyPassword('correct horse', 'garbage')).toBe(false);
  });

  it('should refuse a stored hash that claims more iterations than Workers allow', async () => {
    const hash = await hashPassword('pw-123456', 1000);
    const [algo, , salt, digest] = hash.split('$');
    expect(await verifyPassword('pw-123456', hash)).toBe(true);
    expect(await verifyPassword('pw-123456', `${algo}$${PBKDF2_ITERATIONS + 1}$${salt}$${digest}`)).toBe(false);
  });

  it('should create the owner from ADMIN_PASSWORD with at most 100,000 iterations, once', async () => {
    expect(await env.DB.prepare('SELECT 1 FROM users').first()).toBeNull();
    expect(await ensureOwner(env)).toBe(true);
    const owner = await adminRow();
    expect(owner.username).toBe(ADMIN_USERNAME);
    expect(owner.admin_path).toBe('admin');
    expect(iterationsOf(owner.password_hash)).toBeLessThanOrEqual(100_000);
    expect(await verifyPassword(ADMIN_PASSWORD, owner.password_hash)).toBe(true);
    // A second call finds the owner instead of making another.
    expect(await ensureOwner(env)).toBe(true);
    expect(
      (await env.DB.prepare("SELECT count(*) AS n FROM users WHERE role = 'owner'").first<{ n: number }>())!.n,
    ).toBe(1);
  });

  it('should create no account, so nobody can sign in, without ADMIN_PASSWORD', async () => {
    expect(await ensureOwner({ DB: env.DB })).toBe(false);
    expect(await env.DB.prepare('SELECT 1 FROM users').first()).toBeNull();
  });
});

describe('sign-in', () => {
  it('should sign in with the right login and password and answer success', async () => {
    const res = await client({ ip: freshIp() }).api.admin.login.$post({
      json: { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ success: true, expiresAt: expect.any(Number) });
    expect(sessionCookieFrom(res)).toBeDefined();
  });

  it('should store the new account hash with at most 100,000 iterations after the first login', async () => {
    await login();
    expect(iterationsOf((await adminRow()).password_hash)).toBeLessThanOrEqual(100_000);
  });

  it('should set an HttpOnly, SameSite=Strict cookie on /api for 30 minutes, not Secure on 127.0.0.1', async () => {
    const res = await jsonRequest('POST', '/api/admin/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    expect(res.status).toBe(200);
    const [line] = res.headers.getSetCookie();
    expect(line).toMatch(new RegExp(`^${SESSION_COOKIE}=[0-9a-f]{64};`));
    const attrs = line!
      .split(';')
      .slice(1)
      .map((a) => a.trim().toLowerCase());
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=strict');
    expect(attrs).toContain('path=/api');
    expect(attrs).toContain(`max-age=${ADMIN_SESSION_MS / 1000}`);
    expect(attrs).not.toContain('secure');
  });

  it('should leave out Secure on http://localhost as well', async () => {
    const res = await jsonRequest(
      'POST',
      '/api/admin/login',
      { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      { host: 'http://localhost' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()[0]!.toLowerCase()).not.toMatch(/;\s*secure/);
  });

  it('should mark the cookie Secure and send HSTS over https, on localhost too (a server behind its proxy)', async () => {
    const res = await jsonRequest(
      'POST',
      '/api/admin/login',
      { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      { host: 'https://localhost:3443' },
    );
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie()[0]!.toLowerCase()).toMatch(/;\s*secure/);
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });

  it('should mark the cookie Secure on a real host', async () => {
    const res = await jsonRequest(
      'POST',
      '/api/admin/login',
      { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
      { host: 'https://kaspiy-dom.ru' },
    );
    expect(res.status).toBe(200);
    const attrs = res.headers
      .getSetCookie()[0]!
      .split(';')
      .map((a) => a.trim().toLowerCase());
    expect(attrs).toContain('secure');
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=strict');
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
  });

  it('should store only a hash of the session token', async () => {
    const cookie = await login();
    const token = cookie.split('=')[1]!;
    const { results } = await env.DB.prepare('SELECT token_hash FROM admin_sessions').all<{ token_hash: string }>();
    expect(results).toEqual([{ token_hash: await sha256Hex(token) }]);
    expect(JSON.stringify(results)).not.toContain(token);
  });

  it.each([
    ['a wrong password', { username: ADMIN_USERNAME, password: 'wrong-password' }],
    ['a wrong login', { username: 'root', password: ADMIN_PASSWORD }],
    ['the login in another case', { username: 'ADMIN', password: ADMIN_PASSWORD }],
  ])('should refuse %s with 401, success false and «Неверный логин или пароль»', async (_, creds) => {
    await ensureOwner(env);
    await expectNoChange(async () => {
      const res = await jsonRequest('POST', '/api/admin/login', creds);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ success: false, error: MSG.loginFailed });
      expect(res.headers.getSetCookie()).toEqual([]);
    });
  });

  it.each([
    ['a missing password', { username: ADMIN_USERNAME }, 400, MSG.loginRequired],
    ['an empty login', { username: ' ', password: ADMIN_PASSWORD }, 400, MSG.loginRequired],
    ['a password as a number', { username: ADMIN_USERNAME, password: 12345678 }, 400, MSG.loginRequired],
    ['a login of 201 characters', { username: 'a'.repeat(201), password: 'x' }, 400, MSG.tooLong],
    ['malformed JSON', '{"username": "admin", "password": ', 400, MSG.badJson],
  ] as [string, unknown, number, string][])('should refuse a login with %s (%i)', async (_, body, status, message) => {
    await ensureOwner(env);
    await expectNoChange(async () => {
      await expectError(await jsonRequest('POST', '/api/admin/login', body), status, message);
    });
  });

  it('should refuse a login form that is not JSON with 415', async () => {
    await ensureOwner(env);
    await expectNoChange(async () => {
      const form = new URLSearchParams({ username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
      const res = await send('POST', '/api/admin/login', { body: form });
      await expectError(res, 415);
    });
  });
});

describe('login throttling', () => {
  // The per-login limit and the device cookie: login-limits.test.ts.
  it('should answer 429 once one address had 10 wrong sign-ins at any logins, even with the right password, and let another address in', async () => {
    expect(LOGIN_THROTTLE.address.free).toBe(10);
    const ip = freshIp();
    for (let i = 1; i <= 10; i++) {
      const res = await jsonRequest(
        'POST',
        '/api/admin/login',
        { username: `nobody-${i}`, password: `wrong-${i}` },
        { ip },
      );
      expect(res.status, `failure ${i}`).toBe(401);
    }
    await expectNoChange(async () => {
      const res = await jsonRequest(
        'POST',
        '/api/admin/login',
        { username: ADMIN_USERNAME, password: ADMIN_PASSWORD },
        { ip },
      );
      await expectError(res, 429, MSG.loginThrottled);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(res.headers.getSetCookie()).toEqual([]);
    });
    await login({ ip: freshIp() });
  });

  it('should let the address try again once its wait has passed', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2031-05-01T10:00:00Z').getTime();
    vi.setSystemTime(start);
    const ip = freshIp();
    for (let i = 0; i < LOGIN_THROTTLE.address.free; i++) {
      expect(
        (await jsonRequest('POST', '/api/admin/login', { username: `nobody-${i}`, password: 'nope' }, { ip })).status,
      ).toBe(401);
    }
    expect(
      (await jsonRequest('POST', '/api/admin/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD }, { ip }))
        .status,
    ).toBe(429);
    vi.setSystemTime(start + LOGIN_THROTTLE.address.firstWaitMs - 1000);
    expect(
      (await jsonRequest('POST', '/api/admin/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD }, { ip }))
        .status,
    ).toBe(429);
    vi.setSystemTime(start + LOGIN_THROTTLE.address.firstWaitMs + 1000);
    await login({ ip });
  });

  it('should forget a login’s earlier failures after its successful login', async () => {
    const ip = freshIp();
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < LOGIN_THROTTLE.login.free - 1; i++) {
        expect(
          (await jsonRequest('POST', '/api/admin/login', { username: ADMIN_USERNAME, password: 'nope' }, { ip }))
            .status,
        ).toBe(401);
      }
      await login({ ip });
    }
  });
});

describe('session', () => {
  it('should report the signed-in admin and when the session ends', async () => {
    const before = Date.now();
    const cookie = await login();
    const res = await client({ cookie }).api.admin.session.$get();
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      authenticated: true,
      username: ADMIN_USERNAME,
      role: 'owner',
      twoFactor: false,
      expiresAt: expect.any(Number),
    });
    expect(body.expiresAt).toBeGreaterThanOrEqual(before + ADMIN_SESSION_MS);
    expect(body.expiresAt).toBeLessThanOrEqual(Date.now() + ADMIN_SESSION_MS);
  });

  it('should refuse an unknown or empty session cookie with 401', async () => {
    await login();
    await expectError(
      await send('GET', '/api/admin/session', { cookie: `${SESSION_COOKIE}=${'0'.repeat(64)}` }),
      401,
      MSG.unauthorized,
    );
    await expectError(await send('GET', '/api/admin/session', { cookie: `${SESSION_COOKIE}=` }), 401, MSG.unauthorized);
    await expectError(await send('GET', '/api/admin/session', { cookie: 'other=1' }), 401, MSG.unauthorized);
  });

  it('should end the session 30 minutes after login (clock moved with fake timers)', async () => {
    // vi.setSystemTime moves Date.now() inside the worker too: SELF runs in the test's isolate.
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2031-06-01T12:00:00Z').getTime();
    vi.setSystemTime(start);
    const cookie = await login();
    expect((await adminRowSession()).expires_at).toBe(start + ADMIN_SESSION_MS);

    vi.setSystemTime(start + ADMIN_SESSION_MS - 1000);
    expect(await sessionStatus(cookie)).toBe(200);
    expect((await send('GET', '/api/admin/cabins', { cookie })).status).toBe(200);

    vi.setSystemTime(start + ADMIN_SESSION_MS);
    await expectError(await send('GET', '/api/admin/session', { cookie }), 401, MSG.unauthorized);
    await expectError(await send('GET', '/api/admin/cabins', { cookie }), 401, MSG.unauthorized);
    await expectNoChange(async () => {
      await expectError(
        await jsonRequest('POST', '/api/cabins', { name: 'x', description: 'y', pricePerNight: 1 }, { cookie }),
        401,
      );
    });
  });

  it('should not extend the session by using it', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2031-06-02T12:00:00Z').getTime();
    vi.setSystemTime(start);
    const cookie = await login();
    for (const minutes of [10, 20, 29]) {
      vi.setSystemTime(start + minutes * 60_000);
      expect(await sessionStatus(cookie)).toBe(200);
    }
    vi.setSystemTime(start + 31 * 60_000);
    expect(await sessionStatus(cookie)).toBe(401);
  });

  it('should find a session through the query layer only until it expires', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const start = new Date('2031-06-03T08:00:00Z').getTime();
    vi.setSystemTime(start);
    await ensureOwner(env);
    const { id: userId } = (await env.DB.prepare('SELECT id FROM users').first<{ id: number }>())!;
    const { token, expiresAt } = await createSession(env, { userId });
    expect(expiresAt).toBe(start + ADMIN_SESSION_MS);
    expect(await findSession(env, token)).toMatchObject({
      createdAt: start,
      expiresAt,
      lastSeenAt: start,
      user: { id: userId, username: ADMIN_USERNAME, role: 'owner' },
    });
    vi.setSystemTime(expiresAt);
    expect(await findSession(env, token)).toBeUndefined();
    // Expired rows are swept when the next session is made.
    await createSession(env, { userId });
    expect((await env.DB.prepare('SELECT count(*) AS n FROM admin_sessions').first<{ n: number }>())!.n).toBe(1);
  });

  it('should end the session at logout, so the old cookie gets 401', async () => {
    const cookie = await login();
    const other = await login();
    const res = await client({ cookie }).api.admin.logout.$post();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true });
    const cleared = res.headers.getSetCookie()[0]!;
    expect(cleared).toMatch(new RegExp(`^${SESSION_COOKIE}=;`));
    expect(cleared.toLowerCase()).toMatch(/max-age=0|expires=thu, 01 jan 1970/);
    expect(cleared.toLowerCase()).toContain('path=/api');
    await expectError(await send('GET', '/api/admin/session', { cookie }), 401, MSG.unauthorized);
    await expectError(await send('GET', '/api/reviews', { cookie }), 401, MSG.unauthorized);
    // Signing out in one browser leaves another signed in.
    expect(await sessionStatus(other)).toBe(200);
  });

  it('should answer logout without a session harmlessly', async () => {
    const cookie = await login();
    await expectNoChange(async () => {
      const res = await send('POST', '/api/admin/logout');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true });
    });
    expect(await sessionStatus(cookie)).toBe(200);
  });
});

async function adminRowSession() {
  return (await env.DB.prepare('SELECT expires_at FROM admin_sessions').first<{ expires_at: number }>())!;
}

describe('credentials change', () => {
  it('should change login and password, stop the old password working and end other sessions', async () => {
    const cookie = await login();
    const other = await login();
    const res = await client({ cookie }).api.admin.credentials.$put({
      json: { username: 'owner', password: 'new-password-2', currentPassword: ADMIN_PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, username: 'owner', passwordChanged: true });

    const row = await adminRow();
    expect(row.username).toBe('owner');
    expect(iterationsOf(row.password_hash)).toBeLessThanOrEqual(100_000);
    expect(await verifyPassword('new-password-2', row.password_hash)).toBe(true);

    expect(await sessionStatus(cookie)).toBe(200);
    expect(await sessionStatus(other)).toBe(401);

    const old = await jsonRequest('POST', '/api/admin/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD });
    expect(old.status).toBe(401);
    const oldPasswordNewLogin = await jsonRequest('POST', '/api/admin/login', {
      username: 'owner',
      password: ADMIN_PASSWORD,
    });
    expect(oldPasswordNewLogin.status).toBe(401);
    const oldLoginNewPassword = await jsonRequest('POST', '/api/admin/login', {
      username: ADMIN_USERNAME,
      password: 'new-password-2',
    });
    expect(oldLoginNewPassword.status).toBe(401);
    await login({ username: 'owner', password: 'new-password-2' });
  });

  it('should accept the new password under the form name newPassword too', async () => {
    const cookie = await login();
    const res = await jsonRequest(
      'PUT',
      '/api/admin/credentials',
      { username: ADMIN_USERNAME, newPassword: 'another-pass-3', currentPassword: ADMIN_PASSWORD },
      { cookie },
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, username: ADMIN_USERNAME, passwordChanged: true });
    await login({ password: 'another-pass-3' });
  });

  it.each([
    ['no password field', { username: 'keeper', currentPassword: ADMIN_PASSWORD }],
    ['an empty password', { username: 'keeper', password: '', currentPassword: ADMIN_PASSWORD }],
    ['an empty newPassword', { username: 'keeper', newPassword: '', currentPassword: ADMIN_PASSWORD }],
  ])('should change only the login when %s is given', async (_, body) => {
    const cookie = await login();
    const hashBefore = (await adminRow()).password_hash;
    const res = await jsonRequest('PUT', '/api/admin/credentials', body, { cookie });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, username: 'keeper', passwordChanged: false });
    const row = await adminRow();
    expect(row.username).toBe('keeper');
    expect(row.password_hash).toBe(hashBefore);
    expect(
      (await jsonRequest('POST', '/api/admin/login', { username: ADMIN_USERNAME, password: ADMIN_PASSWORD })).status,
    ).toBe(401);
    await login({ username: 'keeper', password: ADMIN_PASSWORD });
    expect(await sessionStatus(cookie)).toBe(200);
  });

  it.each([
    [
      'a login of 2 characters',
      { username: 'ab', password: 'long-enough-1', currentPassword: ADMIN_PASSWORD },
      MSG.usernameInvalid,
    ],
    ['a login of 51 characters', { username: 'a'.repeat(51), currentPassword: ADMIN_PASSWORD }, MSG.usernameInvalid],
    ['a missing login', { password: 'long-enough-1', currentPassword: ADMIN_PASSWORD }, MSG.usernameInvalid],
    ['a login as a number', { username: 12345, currentPassword: ADMIN_PASSWORD }, MSG.usernameInvalid],
    [
      'a password of 7 characters',
      { username: 'owner', password: 'short-7', currentPassword: ADMIN_PASSWORD },
      MSG.passwordTooShort,
    ],
    [
      'a password of 501 characters',
      { username: 'owner', password: 'p'.repeat(501), currentPassword: ADMIN_PASSWORD },
      MSG.tooLong,
    ],
    ['no current password', { username: 'owner', password: 'long-enough-1' }, MSG.currentPasswordRequired],
    [
      'a wrong current password',
      { username: 'owner', password: 'long-enough-1', currentPassword: 'not-the-password' },
      MSG.currentPasswordWrong,
    ],
    ['malformed JSON', '{"username":', MSG.badJson],
  ] as [string, unknown, string][])('should refuse %s with 400 and change nothing', async (_, body, message) => {
    const cookie = await login();
    await login();
    await expectNoChange(async () => {
      await expectError(await jsonRequest('PUT', '/api/admin/credentials', body, { cookie }), 400, message);
    });
  });
});

describe('admin path', () => {
  it('should read the default admin path', async () => {
    const cookie = await login();
    const res = await client({ cookie }).api.admin.path.$get();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ path: 'admin' });
  });

  it('should change the admin path', async () => {
    const cookie = await login();
    const res = await client({ cookie }).api.admin.path.$put({ json: { path: 'secret-door_1' } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, path: 'secret-door_1' });
    expect(await (await send('GET', '/api/admin/path', { cookie })).json()).toEqual({ path: 'secret-door_1' });
    expect((await adminRow()).admin_path).toBe('secret-door_1');
  });

  it('should take a path typed with slashes around it', async () => {
    const cookie = await login();
    const res = await jsonRequest('PUT', '/api/admin/path', { path: ' /panel-42/ ' }, { cookie });
    expect(res.status).toBe(200);
    expect(await getAdminPath(env)).toBe('panel-42');
  });

  const reserved = [
    'api',
    'cabins',
    'cabin',
    'media',
    'contacts',
    'reviews',
    'shell',
    'assets',
    'fonts',
    'API',
    'Cabins',
  ];
  it.each(reserved)('should refuse the reserved path %s with 400', async (path) => {
    const cookie = await login();
    await expectNoChange(async () => {
      await expectError(await jsonRequest('PUT', '/api/admin/path', { path }, { cookie }), 400, MSG.adminPathReserved);
    });
  });

  it('should keep every reserved path that fits the pattern refused', () => {
    expect(RESERVED_PATHS).toEqual(
      expect.arrayContaining(['api', 'media', 'cabins', 'cabin', 'contacts', 'reviews', 'shell']),
    );
  });

  it.each([
    ['a', MSG.adminPathInvalid],
    ['ab', MSG.adminPathInvalid],
    ['../x', MSG.adminPathInvalid],
    ['..', MSG.adminPathInvalid],
    ['with space', MSG.adminPathInvalid],
    ['a/b/c', MSG.adminPathInvalid],
    ['-dash-first', MSG.adminPathInvalid],
    ['пароль', MSG.adminPathInvalid],
    ['x'.repeat(65), MSG.adminPathInvalid],
    ['', MSG.adminPathInvalid],
    ['admin?x=1', MSG.adminPathInvalid],
    ['%2e%2e', MSG.adminPathInvalid],
    ['_astro', MSG.adminPathInvalid],
  ])('should refuse the malformed path %j with 400', async (path, message) => {
    const cookie = await login();
    await expectNoChange(async () => {
      await expectError(await jsonRequest('PUT', '/api/admin/path', { path }, { cookie }), 400, message);
    });
  });

  it.each([
    ['a missing path', {}],
    ['a path as a number', { path: 123 }],
    ['malformed JSON', '{"path": '],
  ])('should refuse %s with 400', async (_, body) => {
    const cookie = await login();
    await expectNoChange(async () => {
      await expectError(await jsonRequest('PUT', '/api/admin/path', body, { cookie }), 400);
    });
  });
});

describe('serving the admin shell at the admin path', () => {
  const SHELL_MARK = '<!doctype html><title>test admin shell</title>';
  /** The real ASSETS binding, except that the admin shell exists and says who it is. */
  const assetsWithShell = {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const u = new URL(input instanceof Request ? input.url : String(input));
      if (u.pathname === '/shell/admin' || u.pathname === '/shell/admin/' || u.pathname === '/shell/admin/index.html') {
        return Promise.resolve(new Response(SHELL_MARK, { headers: { 'content-type': 'text/html; charset=utf-8' } }));
      }
      return env.ASSETS.fetch(input as never, init as never);
    },
  } as Fetcher;
  const get = async (path: string) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(new Request(url(path)), { ...env, ASSETS: assetsWithShell }, ctx);
    await waitOnExecutionContext(ctx);
    return res;
  };

  it('should serve the shell at the current path only, and 404 the old path after a change', async () => {
    expect((await get('/admin')).status).toBe(200);
    await setAdminPath(env, 'tayna-42');

    const old = await get('/admin');
    expect(old.status).toBe(404);
    expect(await old.text()).not.toContain('test admin shell');

    const current = await get('/tayna-42');
    expect(current.status).toBe(200);
    expect(await current.text()).toBe(SHELL_MARK);
    expect(current.headers.get('cache-control')).toBe('no-store');
    expect(current.headers.get('x-robots-tag')).toContain('noindex');
    expect(current.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    // Only the exact first segment: neither a deeper path nor a different case.
    expect((await get('/tayna-42/x')).status).toBe(404);
    expect((await get('/TAYNA-42')).status).toBe(404);
  });

  it('should serve the new path through the worker as soon as it is changed over the API', async () => {
    const cookie = await login();
    expect((await jsonRequest('PUT', '/api/admin/path', { path: 'new-door' }, { cookie })).status).toBe(200);

    // What the real ASSETS binding (./dist) can serve decides what the worker can answer.
    let shell: Response | null = null;
    for (const p of ['/shell/admin', '/shell/admin/']) {
      const r = await env.ASSETS.fetch(new URL(p, 'http://127.0.0.1'));
      if (r.ok) {
        shell = r;
        break;
      }
      await r.arrayBuffer();
    }
    const notFound = await env.ASSETS.fetch(new URL('/404.html', 'http://127.0.0.1'));
    const notFoundBody = notFound.ok ? await notFound.text() : 'Страница не найдена';

    const old = await SELF.fetch(url('/admin'));
    expect(old.status).toBe(404);
    expect(old.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await old.text()).toBe(notFoundBody);

    const current = await SELF.fetch(url('/new-door'));
    if (shell) {
      const shellBody = await shell.text();
      expect(current.status).toBe(200);
      const body = await current.text();
      expect(body).toBe(shellBody);
      expect(body).not.toBe(notFoundBody);
    } else {
      // dist/ has no admin shell (site not built): the worker falls back to the 404 page.
      // The routing decision itself is covered with a shell-serving ASSETS in the test above.
      expect(current.status).toBe(404);
      await current.arrayBuffer();
    }
  });

  it('should not serve the admin shell at any other address, such as /shell/admin', async () => {
    for (const path of ['/shell/admin', '/shell/admin/', '/shell/admin/index.html', '/shell']) {
      const viaStub = await get(path);
      expect(viaStub.status, path).toBe(404);
      expect(await viaStub.text()).not.toContain('test admin shell');
      const viaWorker = await SELF.fetch(url(path));
      expect(viaWorker.status, path).toBe(404);
      await viaWorker.arrayBuffer();
    }
  });

  it('should answer other unknown pages with the 404 page', async () => {
    const res = await get('/no-such-page');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
