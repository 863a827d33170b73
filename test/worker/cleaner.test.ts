import { env } from 'cloudflare:test';
import type { InferResponseType } from 'hono/client';
import { beforeEach, describe, expect, it } from 'vitest';
import type { UserView } from '../../schema/account.ts';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import { MSG } from '../../schema/messages.ts';
import { sha256Hex } from '../../worker/lib/password.ts';
import { ROUTE_RULES } from '../../worker/middleware/roles.ts';
import {
  type Api,
  callWith,
  expectError,
  expectNoChange,
  jsonOf,
  jsonRequest,
  login,
  resetDataWithAdmin,
  seedCabin,
  seedUser,
  send,
  sessionCookieFrom,
  snapshot,
} from './helpers.ts';
import { sessionRoutes, type SessionRoute } from './session-routes.ts';
import { booking } from './stays.ts';

// The cleaner (docs/security.md «Roles»), on both runtimes: the owner adds one with the cabins they
// clean and no password, hands them a private sign-in link and may revoke it; the link signs them
// in, and their session reaches «Сегодня» (their cabins' tasks, nobody's name, phone or money) and
// the ticking of those tasks, and is refused every other route of the app's own route table.

type Today = InferResponseType<Api['admin']['today']['$get'], 200>;
type Task = InferResponseType<Api['admin']['tasks'][':id']['$put'], 200>;
type Occupancy = InferResponseType<Api['admin']['occupancy']['$get'], 200>;
type Link = { url: string; createdAt: number };

const day = (n: number) => addDays(todayInMoscow(), n);

beforeEach(resetDataWithAdmin);

/**
 * The site's files as the build makes them, as small as the server's filling needs (the node-api
 * project has no built site): the cleaner's page and the 404 page as site/pages/404.astro marks it.
 */
const SHELL = '<!doctype html><title>Уборки — Каспий</title><main data-cleaner-day></main>';
const NOT_FOUND =
  '<!doctype html><title>Страница не найдена — Каспий</title><h1 data-nf-title>Страница не найдена</h1><p class="muted" data-nf-text>Похоже, ссылка устарела.</p>';
const read: string[] = [];
const ASSETS = {
  fetch: async (input: URL | string | Request) => {
    const path = new URL(input instanceof Request ? input.url : input).pathname;
    read.push(path);
    if (path === '/shell/cleaner') return new Response(SHELL);
    if (path === '/404.html') return new Response(NOT_FOUND);
    return new Response('Not found', { status: 404 });
  },
} as unknown as Fetcher;
const withSite = callWith({ ASSETS });

/** Opens a link as the cleaner's phone does. */
const open = (link: string, ip = '198.51.100.7') =>
  withSite('GET', new URL(link).pathname, { ip, headers: { 'user-agent': 'Cleaner phone' } });

async function addCleaner(cookie: string, cabinIds: number[], username = 'marina') {
  return jsonOf<UserView>(
    await jsonRequest('POST', '/api/admin/users', { username, role: 'cleaner', cabinIds }, { cookie }),
    201,
  );
}
async function makeLink(cookie: string, id: number) {
  return jsonOf<Link>(await send('POST', `/api/admin/users/${id}/link`, { cookie }), 200);
}
/** A cleaner signed in through their link: the session cookie it set. */
async function signInBy(link: string) {
  const res = await open(link);
  expect(res.status).toBe(200);
  const cookie = sessionCookieFrom(res);
  expect(cookie).toBeDefined();
  return cookie!;
}

describe('adding a cleaner', () => {
  it('should add a cleaner with their cabins and no password, and list them with the cabins and no link', async () => {
    const owner = await login();
    const a = await seedCabin({ name: 'Бриз' });
    const b = await seedCabin({ name: 'Чайка' });
    const made = await addCleaner(owner, [b.id, a.id, a.id]);
    expect(made).toMatchObject({ username: 'marina', role: 'cleaner', cabinIds: [a.id, b.id], linkCreatedAt: null });
    const users = await jsonOf<UserView[]>(await send('GET', '/api/admin/users', { cookie: owner }), 200);
    expect(users.map((u) => [u.username, u.role, u.cabinIds, u.linkCreatedAt])).toEqual([
      ['admin', 'owner', [], null],
      ['marina', 'cleaner', [a.id, b.id], null],
    ]);
    // No password anyone knows: signing in with one is refused as any wrong password is.
    expect(
      (await jsonRequest('POST', '/api/admin/login', { username: 'marina', password: 'anything-at-all' })).status,
    ).toBe(401);
  });

  it('should refuse a cleaner without cabins, with a password, a manager with cabins or no password, and unknown cabins', async () => {
    const owner = await login();
    const cabin = await seedCabin();
    await expectNoChange(async () => {
      const add = (body: unknown) => jsonRequest('POST', '/api/admin/users', body, { cookie: owner });
      await expectError(await add({ username: 'marina', role: 'cleaner' }), 400, MSG.cleanerCabinsRequired);
      await expectError(
        await add({ username: 'marina', role: 'cleaner', cabinIds: [] }),
        400,
        MSG.cleanerCabinsRequired,
      );
      await expectError(
        await add({ username: 'marina', role: 'cleaner', cabinIds: [cabin.id], password: 'long-enough-1' }),
        400,
        MSG.cleanerNoPassword,
      );
      await expectError(await add({ username: 'oleg', role: 'manager' }), 400, MSG.passwordTooShort);
      await expectError(
        await add({ username: 'oleg', role: 'manager', password: 'long-enough-1', cabinIds: [cabin.id] }),
        400,
        MSG.cabinsOnlyForCleaner,
      );
      await expectError(await add({ username: 'marina', role: 'cleaner', cabinIds: ['1'] }), 400, MSG.badInput);
      await expectError(
        await add({ username: 'marina', role: 'cleaner', cabinIds: [cabin.id, 999999] }),
        404,
        MSG.cabinNotFound,
      );
      await expectError(
        await add({ username: 'admin', role: 'cleaner', cabinIds: [cabin.id] }),
        409,
        MSG.usernameTaken,
      );
    });
  });
});

describe('a cleaner’s sign-in link', () => {
  it('should sign the cleaner in with a session cookie and answer their page; only the token’s hash is kept', async () => {
    const owner = await login();
    const cabin = await seedCabin();
    const cleaner = await addCleaner(owner, [cabin.id]);
    const link = await makeLink(owner, cleaner.id);
    const token = /^http:\/\/127\.0\.0\.1(?::\d+)?\/enter\/([0-9a-f]{64})$/.exec(link.url)?.[1];
    expect(token, link.url).toBeDefined();
    const users = await jsonOf<UserView[]>(await send('GET', '/api/admin/users', { cookie: owner }), 200);
    expect(users.find((u) => u.id === cleaner.id)?.linkCreatedAt).toBe(link.createdAt);

    read.length = 0;
    const res = await open(link.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await res.clone().text()).toBe(SHELL);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    const setCookie = res.headers.getSetCookie().find((l) => l.startsWith('kaspiy_admin='));
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Strict/i);
    expect(setCookie).toMatch(/Path=\/api/i);
    const cookie = sessionCookieFrom(res)!;
    expect((await send('GET', '/api/admin/today', { cookie })).status).toBe(200);
    // The link may be opened again (a new session each time) until it is revoked.
    read.length = 0;
    expect((await open(link.url)).status).toBe(200);
    // A known link and an unknown one read the same files.
    const known = [...read].sort();
    read.length = 0;
    expect((await open(`http://127.0.0.1/enter/${'f'.repeat(64)}`)).status).toBe(404);
    expect([...read].sort()).toEqual(known);
    expect(known).toEqual(['/404.html', '/shell/cleaner']);

    const { results } = await env.DB.prepare('SELECT user_id, token_hash FROM sign_in_links').all();
    expect(results).toEqual([{ user_id: cleaner.id, token_hash: await sha256Hex(token!) }]);
    // The token is nowhere else: not in «Журнал», not in any table.
    expect(JSON.stringify(await snapshot())).not.toContain(token);
    const audit = (
      await env.DB.prepare('SELECT action, description, actor, target, after FROM audit_log ORDER BY id').all()
    ).results;
    expect(JSON.stringify(audit)).not.toContain(token);
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: 'POST /api/admin/users/:id/link',
          description: 'Ссылка для входа уборщика',
          actor: 'admin',
          target: String(cleaner.id),
          after: null,
        }),
        expect.objectContaining({ action: 'GET /enter/:token', description: 'Вход по ссылке', actor: 'marina' }),
      ]),
    );
  });

  it('should answer an unknown, replaced or revoked link with a Russian page and no session; revoking ends the cleaner’s sessions', async () => {
    const owner = await login();
    const cabin = await seedCabin();
    const cleaner = await addCleaner(owner, [cabin.id]);
    const first = await makeLink(owner, cleaner.id);
    const firstSession = await signInBy(first.url);
    // A new link replaces the old one; the session the old one opened goes on.
    const second = await makeLink(owner, cleaner.id);
    expect(second.url).not.toBe(first.url);
    const secondSession = await signInBy(second.url);
    const refused = async (link: string) => {
      const res = await open(link);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(sessionCookieFrom(res)).toBeUndefined();
      expect(await res.text()).toContain(MSG.signInLinkInvalid);
    };
    await expectNoChange(async () => {
      await refused(first.url);
      await refused(`http://127.0.0.1/enter/${'0'.repeat(64)}`);
    });
    expect((await send('GET', '/api/admin/today', { cookie: firstSession })).status).toBe(200);

    expect(await jsonOf(await send('DELETE', `/api/admin/users/${cleaner.id}/link`, { cookie: owner }), 200)).toEqual({
      success: true,
    });
    await refused(second.url);
    for (const cookie of [firstSession, secondSession])
      await expectError(await send('GET', '/api/admin/today', { cookie }), 401, MSG.unauthorized);
    // The owner's own session is untouched; revoking again is no error.
    expect((await send('DELETE', `/api/admin/users/${cleaner.id}/link`, { cookie: owner })).status).toBe(200);
    const users = await jsonOf<UserView[]>(await send('GET', '/api/admin/users', { cookie: owner }), 200);
    expect(users.find((u) => u.id === cleaner.id)?.linkCreatedAt).toBeNull();
    const revoked = await env.DB.prepare(
      "SELECT target, outcome FROM audit_log WHERE action = 'DELETE /api/admin/users/:id/link'",
    ).all();
    expect(revoked.results).toEqual([
      { target: String(cleaner.id), outcome: 'ok' },
      { target: String(cleaner.id), outcome: 'ok' },
    ]);
  });

  it('should make links for cleaners only, and only for the owner', async () => {
    const owner = await login();
    await seedUser('menedzher', 'manager-pass-1');
    const manager = await login({ username: 'menedzher', password: 'manager-pass-1' });
    const cabin = await seedCabin();
    const cleaner = await addCleaner(owner, [cabin.id]);
    await expectNoChange(async () => {
      await expectError(await send('POST', '/api/admin/users/1/link', { cookie: owner }), 409, MSG.notCleaner);
      await expectError(await send('DELETE', '/api/admin/users/1/link', { cookie: owner }), 409, MSG.notCleaner);
      await expectError(await send('POST', '/api/admin/users/999999/link', { cookie: owner }), 404, MSG.userNotFound);
      await expectError(await send('DELETE', '/api/admin/users/999999/link', { cookie: owner }), 404, MSG.userNotFound);
      await expectError(
        await send('POST', `/api/admin/users/${cleaner.id}/link`, { cookie: manager }),
        403,
        MSG.forbidden,
      );
    });
    // The owner's sessions were not ended by the refused revoke.
    expect((await send('GET', '/api/admin/session', { cookie: owner })).status).toBe(200);
  });

  it('should take the link and the cabins away with the cleaner', async () => {
    const owner = await login();
    const cabin = await seedCabin();
    const cleaner = await addCleaner(owner, [cabin.id]);
    const link = await makeLink(owner, cleaner.id);
    const session = await signInBy(link.url);
    expect((await send('DELETE', `/api/admin/users/${cleaner.id}`, { cookie: owner })).status).toBe(200);
    expect((await open(link.url)).status).toBe(404);
    expect((await send('GET', '/api/admin/today', { cookie: session })).status).toBe(401);
    const left = await env.DB.prepare(
      'SELECT (SELECT count(*) FROM cleaner_cabins) AS cabins, (SELECT count(*) FROM sign_in_links) AS links',
    ).first();
    expect(left).toEqual({ cabins: 0, links: 0 });
  });
});

describe('a cleaner’s day', () => {
  it('should show only the tasks of their cabins, no guest and no money, and let them tick those alone', async () => {
    const owner = await login();
    const mine = await seedCabin({ name: 'Бриз' });
    const other = await seedCabin({ name: 'Чайка' });
    // The day looked at is day 2: Ольга leaves «Бриз» and Анна arrives on day 3, Пётр leaves «Чайка».
    await booking(owner, mine.id, day(1), day(3), true, 'Ольга Гостева');
    await booking(owner, other.id, day(1), day(3), true, 'Пётр Постоялец');
    await booking(owner, mine.id, day(3), day(5), true, 'Анна Заезжая');
    const repair = await jsonOf<Task>(
      await jsonRequest(
        'POST',
        '/api/admin/tasks',
        { cabinId: other.id, due: day(2), kind: 'repair' },
        { cookie: owner },
      ),
      201,
    );
    const cleaner = await addCleaner(owner, [mine.id]);
    const cookie = await signInBy((await makeLink(owner, cleaner.id)).url);

    // The owner sees everyone on that day; the cleaner, the cleaning of «Бриз» alone.
    const all = await jsonOf<Today>(await send('GET', `/api/admin/today?date=${day(2)}`, { cookie: owner }), 200);
    expect(all.departures).toHaveLength(2);
    expect(all.tasks).toHaveLength(3);
    const res = await send('GET', `/api/admin/today?date=${day(2)}`, { cookie });
    const text = await res.clone().text();
    const day0 = await jsonOf<Today>(res, 200);
    expect(day0).toMatchObject({ date: day(2), next: day(3), arrivals: [], departures: [], staying: [], deposits: [] });
    expect(day0.tasks.map((t) => [t.cabinName, t.kind, t.due, t.done])).toEqual([['Бриз', 'cleaning', day(3), false]]);
    for (const secret of ['Ольга', 'Пётр', 'Анна', '555-12-34', 'anna@example.ru', 'Чайка', 'total', 'paid'])
      expect(text).not.toContain(secret);

    const cleaning = day0.tasks[0]!;
    // Another cabin's task, or one that does not exist, is not theirs.
    await expectNoChange(async () => {
      await expectError(
        await jsonRequest('PUT', `/api/admin/tasks/${repair.id}`, { done: true }, { cookie }),
        403,
        MSG.forbidden,
      );
      await expectError(
        await jsonRequest('PUT', '/api/admin/tasks/999999', { done: true }, { cookie }),
        403,
        MSG.forbidden,
      );
    });
    const done = await jsonOf<Task>(
      await jsonRequest('PUT', `/api/admin/tasks/${cleaning.id}`, { done: true, note: 'Бельё сменила' }, { cookie }),
      200,
    );
    expect(done).toMatchObject({ id: cleaning.id, done: true, note: 'Бельё сменила' });
    // The owner's «Шахматка» shows the cabin clean; the other cabin still waits for its cleaning.
    const chart = await jsonOf<Occupancy>(
      await send('GET', `/api/admin/occupancy?from=${day(2)}&days=3`, { cookie: owner }),
      200,
    );
    expect(chart.cabins.map((c) => [c.name, c.cleaning])).toEqual([
      ['Бриз', []],
      ['Чайка', [day(3)]],
    ]);
    // «Журнал» has it under the cleaner's name.
    const ticked = await env.DB.prepare(
      "SELECT actor, outcome FROM audit_log WHERE action = 'PUT /api/admin/tasks/:id' ORDER BY id",
    ).all();
    expect(ticked.results).toEqual([
      { actor: 'marina', outcome: 'denied' },
      { actor: 'marina', outcome: 'denied' },
      { actor: 'marina', outcome: 'ok' },
    ]);
  });
});

/** Every route that needs a session, from the app's own route table (session-routes.ts). */
const SESSION_ROUTES = (await sessionRoutes()).map((r) => [r.key, r] as const);
const CLEANERS = new Set([
  'GET /api/admin/today',
  'PUT /api/admin/tasks/:id',
  // The photo of a task of theirs (test/worker/task-photo.test.ts).
  'PUT /api/admin/tasks/:id/photo',
  'GET /api/admin/tasks/:id/photo',
  // Their own morning list in Telegram or MAX (test/worker/cleaner-list.test.ts).
  'GET /api/admin/today/messengers',
  'POST /api/admin/today/messengers/:channel',
]);

/** A request to the route with an empty JSON body: who may call it is decided before the body is read. */
const call = (route: SessionRoute, cookie: string) =>
  route.method === 'GET' ? send('GET', route.path, { cookie }) : jsonRequest(route.method, route.path, {}, { cookie });

describe('a cleaner’s session on every route', () => {
  it('should give a cleaner exactly «Сегодня», the ticking of tasks and their own morning list in the role table', () => {
    expect(
      Object.entries(ROUTE_RULES)
        .filter(([, r]) => r.access === 'cleaner')
        .map(([k]) => k)
        .sort(),
    ).toEqual([...CLEANERS].sort());
  });

  it.each(SESSION_ROUTES)('should answer a cleaner on %s as the role table says', async (key, route) => {
    const owner = await login();
    const cabin = await seedCabin();
    const cleaner = await addCleaner(owner, [cabin.id]);
    const cookie = await signInBy((await makeLink(owner, cleaner.id)).url);
    if (CLEANERS.has(key)) {
      // A task route is theirs for a task of their cabin (another's is 403: test/worker/task-photo.test.ts).
      const task = await jsonOf<Task>(
        await jsonRequest(
          'POST',
          '/api/admin/tasks',
          { cabinId: cabin.id, due: day(0), kind: 'cleaning' },
          { cookie: owner },
        ),
        201,
      );
      const theirs = { ...route, path: route.path.replace(/^\/api\/admin\/tasks\/1\b/, `/api/admin/tasks/${task.id}`) };
      expect([401, 403]).not.toContain((await call(theirs, cookie)).status);
      return;
    }
    await expectNoChange(async () => {
      await expectError(await call(route, cookie), 403, MSG.forbidden);
    });
  });
});
