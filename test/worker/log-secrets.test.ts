import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MSG } from '../../schema/messages.ts';
import { createSession } from '../../worker/queries/sessions.ts';
import { env } from 'cloudflare:test';
import { callWith, expectError, failingD1, jsonRequest, login, resetDataWithAdmin, SESSION_COOKIE } from './helpers.ts';

// What the server prints to its log (the journal, wrangler tail) when a request fails: the request's
// path, never a guest's page token, the admin panel's address or a session's token.

beforeEach(resetDataWithAdmin);
afterEach(() => vi.restoreAllMocks());

const GUEST_TOKEN = '0123456789abcdef0123456789abcdef0123';
const ADMIN_PATH = 'tainaya-panel-7q';
const call = callWith({});
/** The site's files cannot be read (a disk fault, a deploy in progress). */
const failingAssets = { fetch: () => Promise.reject(new Error('the site files cannot be read')) } as unknown as Fetcher;

/** Everything the server printed while `act` ran, as one text. */
async function printed(act: () => Promise<void>): Promise<string> {
  const lines: string[] = [];
  const show = (v: unknown): string =>
    v instanceof Error
      ? `${v.stack ?? v.message} ${show(v.cause)}`
      : typeof v === 'string'
        ? v
        : (JSON.stringify(v) ?? String(v));
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const)
    vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void lines.push(args.map(show).join(' ')));
  await act();
  vi.restoreAllMocks();
  return lines.join('\n');
}

describe('the server log keeps no secret', () => {
  it.each([
    ['a guest’s page data while the database is down', 'GET', `/api/guest/${GUEST_TOKEN}`, '/api/guest/…'],
    [
      'a guest’s cancellation while the database is down',
      'POST',
      `/api/guest/${GUEST_TOKEN}/cancel`,
      '/api/guest/…/cancel',
    ],
  ])('should log %s without the guest’s token', async (_, method, path, shown) => {
    const log = await printed(async () => {
      await expectError(await call(method, path, { bindings: { DB: failingD1('reject') } }), 500, MSG.serverError);
    });
    expect(log).toContain(`Unhandled error ${method} ${shown}`);
    expect(log).not.toContain(GUEST_TOKEN);
  });

  it('should log a guest’s page that failed to open as /b/…, without the token', async () => {
    const log = await printed(async () => {
      await expectError(
        await call('GET', `/b/${GUEST_TOKEN}`, { bindings: { ASSETS: failingAssets } }),
        500,
        MSG.serverError,
      );
    });
    expect(log).toContain('Unhandled error GET /b/…');
    expect(log).not.toContain(GUEST_TOKEN);
  });

  it('should log a cleaner’s sign-in link that failed to open as /enter/…, without the token', async () => {
    const token = 'ab'.repeat(32);
    const log = await printed(async () => {
      await expectError(
        await call('GET', `/enter/${token}`, { bindings: { DB: failingD1('reject') } }),
        500,
        MSG.serverError,
      );
    });
    expect(log).toContain('Unhandled error GET /enter/…');
    expect(log).not.toContain(token);
  });

  it('should log the admin panel that failed to open as /…, without its address, and no session token', async () => {
    const cookie = await login();
    expect((await jsonRequest('PUT', '/api/admin/path', { path: ADMIN_PATH }, { cookie })).status).toBe(200);
    const session = await createSession(env, { userId: 1 });
    const log = await printed(async () => {
      await expectError(
        await call('GET', `/${ADMIN_PATH}`, {
          bindings: { ASSETS: failingAssets },
          cookie: `${SESSION_COOKIE}=${session.token}`,
        }),
        500,
        MSG.serverError,
      );
      await expectError(
        await call('GET', '/api/admin/session', {
          bindings: { DB: failingD1('reject') },
          cookie: `${SESSION_COOKIE}=${session.token}`,
        }),
        500,
        MSG.serverError,
      );
    });
    expect(log).toContain('Unhandled error GET /…');
    expect(log).toContain('Unhandled error GET /api/admin/session');
    expect(log).not.toContain(ADMIN_PATH);
    expect(log).not.toContain(session.token);
  });
});
