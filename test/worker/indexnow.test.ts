import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { inject } from 'vitest';
import { INDEXNOW_OFF_NO_DOMAIN, type IndexNowStatus } from '../../schema/indexnow.ts';
import type { IndexNowReceived } from '../../stand-ins/indexnow-api.ts';
import type { Bindings } from '../../worker/env.ts';
import { ensureIndexNowKey } from '../../worker/indexnow/site.ts';
import { runSchedule } from '../../worker/scheduled.ts';
import { callWith, jsonOf, login, resetDataWithAdmin, seedUser, send } from './helpers.ts';

/**
 * IndexNow on both runtimes: the schedule reads the live site's /site-pages.json through the site
 * port (here a site of the test's own that serves only that file), queues the addresses whose
 * page is new, changed or gone since the last list, and sends them to the stand-in of the search
 * engine (stand-ins/indexnow-api.ts). Each test has a host of its own, so the stand-in's record
 * of one never holds another's lists.
 */

const indexNowApi = inject('indexNowApiUrl');
let hosts = 0;
const freshHost = () => `kaspiy-${++hosts}-${crypto.randomUUID().slice(0, 8)}.example`;

type Pages = Record<string, string>;

/** The site port of a built site that has these pages (or no page list at all: null). */
const siteWith = (pages: () => Pages | null) => ({
  fetch: async (input: URL | string | Request) => {
    const path = new URL(input instanceof Request ? input.url : input).pathname;
    const now = pages();
    if (path === '/site-pages.json' && now) return Response.json({ pages: now });
    return new Response('Not found', { status: 404 });
  },
});

/** A server whose public address is `siteUrl`, with a site whose page list the test changes. */
function server(siteUrl: string, first: Pages | null = null) {
  let pages = first;
  const bindings = {
    ...env,
    SITE_URL: siteUrl,
    INDEXNOW_URL: `${indexNowApi}/indexnow`,
    ASSETS: siteWith(() => pages),
  } as unknown as Bindings;
  const call = callWith({ SITE_URL: siteUrl, INDEXNOW_URL: bindings.INDEXNOW_URL, ASSETS: bindings.ASSETS });
  return {
    bindings,
    call,
    publish: (next: Pages) => {
      pages = next;
    },
    /** One scheduled run, as the minute's tick makes it. */
    schedule: () => runSchedule(bindings, { push: true, pull: false, upkeep: false }),
  };
}

const received = async (host: string) =>
  (await (
    await fetch(`${indexNowApi}/_stand-in/received?host=${encodeURIComponent(host)}`)
  ).json()) as IndexNowReceived[];

const answerNext = async (host: string, statuses: number[]) =>
  expect(
    (await fetch(`${indexNowApi}/_stand-in/answers`, { method: 'POST', body: JSON.stringify({ host, statuses }) }))
      .status,
  ).toBe(200);

const status = async (call: ReturnType<typeof callWith>, cookie: string) =>
  jsonOf<IndexNowStatus>(await call('GET', '/api/admin/indexnow', { cookie }), 200);

const indexNowRows = async () =>
  (
    await env.DB.prepare(
      "SELECT id, text, sent_at, given_up_at, last_error FROM outbox WHERE channel = 'indexnow' ORDER BY id",
    ).all<{ id: number; text: string; sent_at: number | null; given_up_at: number | null; last_error: string | null }>()
  ).results;

/** The pause before a list is tried again, over: what the schedule would find a few minutes later. */
const pauseOver = () => env.DB.prepare("UPDATE outbox SET next_attempt_at = 0 WHERE channel = 'indexnow'").run();

const storedKey = async () =>
  (
    await env.DB.prepare(
      "SELECT json_extract(value, '$.indexNowKey') AS key FROM settings WHERE key = 'promotion'",
    ).first<{ key: string }>()
  )?.key ?? null;

const V1: Pages = { '/': 'h1', '/cabins': 'c1', '/cabin/1': 'a1', '/cabin/2': 'b1', '/reviews': 'r1' };

beforeEach(resetDataWithAdmin);

describe('IndexNow after a publish', () => {
  it('should send every page the first time, then exactly the new, changed and removed addresses, and nothing when nothing changed', async () => {
    const host = freshHost();
    const site = server(`https://${host}`, V1);
    await site.schedule();
    const [first, ...more] = await received(host);
    expect(more).toEqual([]);
    const key = await storedKey();
    expect(key).toMatch(/^[0-9a-f]{32}$/);
    expect(first).toMatchObject({
      host,
      key,
      keyLocation: `https://${host}/${key}.txt`,
      status: 200,
    });
    expect(first!.contentType).toMatch(/^application\/json/);
    expect(first!.urlList.sort()).toEqual(
      Object.keys(V1)
        .map((p) => `https://${host}${p}`)
        .sort(),
    );

    await site.schedule();
    await pauseOver();
    await site.schedule();
    expect(await received(host), 'an unchanged site sends nothing').toHaveLength(1);

    // A cabin edited, another removed (hidden), a third added, the home page showing it.
    const { '/cabin/2': _gone, ...rest } = V1;
    site.publish({ ...rest, '/': 'h2', '/cabin/1': 'a2', '/cabin/3': 'n1' });
    await site.schedule();
    const lists = await received(host);
    expect(lists).toHaveLength(2);
    expect(lists[1]!.urlList).toEqual(['/', '/cabin/1', '/cabin/2', '/cabin/3'].map((p) => `https://${host}${p}`));
    await site.schedule();
    expect(await received(host)).toHaveLength(2);

    const cookie = await login();
    const shown = await status(site.call, cookie);
    expect(shown).toMatchObject({
      on: true,
      key,
      keyUrl: `https://${host}/${key}.txt`,
      lastUrls: 4,
      pending: 0,
    });
    expect(shown.why).toBeUndefined();
    expect(shown.error).toBeUndefined();
    expect(Date.now() - Date.parse(shown.lastSentAt!)).toBeLessThan(60_000);
  });

  it('should keep a 403 with its reason for the owner and not try that list again', async () => {
    const host = freshHost();
    const site = server(`https://${host}`, V1);
    await answerNext(host, [403]);
    const logged = [vi.spyOn(console, 'error'), vi.spyOn(console, 'log')];
    await site.schedule();
    await pauseOver();
    await site.schedule();
    const lines = logged.flatMap((spy) => spy.mock.calls.map((args) => args.map(String).join(' ')));
    logged.forEach((spy) => spy.mockRestore());
    expect(
      lines.some((l) => l.includes('IndexNow')),
      'the refusal is logged',
    ).toBe(true);
    const sentKey = (await storedKey())!;
    expect(
      lines.filter((l) => l.includes(sentKey)),
      'never with the key',
    ).toEqual([]);
    expect((await received(host)).map((r) => r.status)).toEqual([403]);
    const [row] = await indexNowRows();
    expect(row!.given_up_at).not.toBeNull();
    expect(row!.sent_at).toBeNull();

    const shown = await status(site.call, await login());
    const key = await storedKey();
    expect(shown.error).toContain('403: ключ не подтверждён');
    expect(shown.error).toContain(`https://${host}/${key}.txt`);
    // The search engine's own words, beside ours.
    expect(shown.error).toContain('Key not valid');
    expect(shown).toMatchObject({ on: true, pending: 0 });
    expect(shown.lastSentAt).toBeUndefined();

    // The next publish goes (and the old refusal is no longer the last word).
    site.publish({ ...V1, '/cabin/1': 'a2' });
    await site.schedule();
    expect((await received(host)).map((r) => [r.status, r.urlList])).toEqual([
      [403, expect.any(Array)],
      [200, [`https://${host}/cabin/1`]],
    ]);
    const after = await status(site.call, await login());
    expect(after.error).toBeUndefined();
    expect(after.lastUrls).toBe(1);
  });

  it.each([
    [422, '422: адреса не относятся к сайту'],
    [400, '400: запрос не принят'],
  ])('should give up a list refused with %i and say why', async (code, reason) => {
    const host = freshHost();
    const site = server(`https://${host}`, V1);
    await answerNext(host, [code]);
    await site.schedule();
    await pauseOver();
    await site.schedule();
    expect((await received(host)).map((r) => r.status)).toEqual([code]);
    expect((await status(site.call, await login())).error).toContain(reason);
  });

  it.each([429, 500])('should try a list refused with %i again after the pause, and send it once', async (code) => {
    const host = freshHost();
    const site = server(`https://${host}`, V1);
    await answerNext(host, [code]);
    await site.schedule();
    const cookie = await login();
    const waiting = await status(site.call, cookie);
    expect(waiting.pending).toBe(Object.keys(V1).length);
    expect(waiting.error).toContain(`${code}: `);
    expect(waiting.error).toContain('отправим позже');

    await site.schedule();
    expect(
      (await received(host)).map((r) => r.status),
      'not before the pause',
    ).toEqual([code]);
    await pauseOver();
    await site.schedule();
    await pauseOver();
    await site.schedule();
    const lists = await received(host);
    expect(lists.map((r) => r.status)).toEqual([code, 200]);
    expect(lists[1]!.urlList).toEqual(lists[0]!.urlList);
    const [row] = await indexNowRows();
    expect(row!.sent_at).not.toBeNull();
    expect(row!.last_error).toBeNull();
    expect(await status(site.call, cookie)).toMatchObject({ pending: 0, lastUrls: Object.keys(V1).length });
    expect((await status(site.call, cookie)).error).toBeUndefined();
  });

  it('should send at most one list a run where outbound requests are counted (Workers), oldest first', async () => {
    const host = freshHost();
    const site = server(`https://${host}`, V1);
    await answerNext(host, [500]);
    await site.schedule();
    site.publish({ ...V1, '/cabin/1': 'a2' });
    await pauseOver();
    const counted = { ...site.bindings, SUBREQUESTS_PER_RUN: 45 } as Bindings;
    await runSchedule(counted, { push: true, pull: false, upkeep: false });
    expect((await received(host)).map((r) => [r.status, r.urlList.length])).toEqual([
      [500, 5],
      [200, 5],
    ]);
    await runSchedule(counted, { push: true, pull: false, upkeep: false });
    expect((await received(host)).map((r) => [r.status, r.urlList])).toEqual([
      [500, expect.any(Array)],
      [200, expect.any(Array)],
      [200, [`https://${host}/cabin/1`]],
    ]);
  });

  it('should queue one list and make one key when many scheduled runs go at once', async () => {
    const host = freshHost();
    const site = server(`https://${host}`, V1);
    const keys = await Promise.all(Array.from({ length: 8 }, () => ensureIndexNowKey(env)));
    expect(new Set(keys).size).toBe(1);
    await Promise.all(Array.from({ length: 8 }, () => site.schedule()));
    const rows = await indexNowRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.text.split('\n')).toHaveLength(Object.keys(V1).length);
    const lists = await received(host);
    expect(lists).toHaveLength(1);
    expect(lists[0]!.key).toBe(keys[0]);

    // A publish raced the same way: one more list, of the one changed address.
    site.publish({ ...V1, '/reviews': 'r2' });
    await Promise.all(Array.from({ length: 8 }, () => site.schedule()));
    expect((await indexNowRows()).map((r) => r.text)).toEqual([rows[0]!.text, `https://${host}/reviews`]);
    expect(await received(host)).toHaveLength(2);
  });

  it('should serve the key file at /{key}.txt, and the 404 page at any other key', async () => {
    const host = freshHost();
    const site = server(`https://${host}`, V1);
    expect((await site.call('GET', '/0123456789abcdef0123456789abcdef.txt')).status, 'no key yet').toBe(404);
    await site.schedule();
    const key = (await storedKey())!;
    const res = await site.call('GET', `/${key}.txt`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(await res.text()).toBe(key);
    expect((await site.call('GET', `/${key.replace(/.$/, (c) => (c === '0' ? '1' : '0'))}.txt`)).status).toBe(404);
    expect((await site.call('GET', `/${key}.txt.bak`)).status).toBe(404);
    // Through the entry itself (Workers: the assets layer, which has no such file, then the worker).
    const entry = await send('GET', `/${key}.txt`);
    expect(entry.status).toBe(200);
    expect(await entry.text()).toBe(key);

    // A key the owner set in the settings is the one served and sent.
    const cookie = await login();
    await jsonOf(
      await site.call('PUT', '/api/settings', {
        cookie,
        headers: { origin: 'http://127.0.0.1' },
        body: { promotion: { webmasterCode: '', metrikaId: '', indexNowKey: 'owner-key-2026' } },
      }),
      200,
    );
    expect(await (await site.call('GET', '/owner-key-2026.txt')).text()).toBe('owner-key-2026');
    expect((await site.call('GET', `/${key}.txt`)).status).toBe(404);
  });

  it.each([
    ['no address', ''],
    ['http', 'http://kaspiy-plain.example'],
    ['the local run', 'http://127.0.0.1:8787'],
    ['localhost', 'https://localhost:8443'],
    ['an IP', 'https://192.0.2.10'],
    ['an IPv6', 'https://[2001:db8::1]'],
    ['one label', 'https://kaspiy'],
  ])('should stay off with %s as SITE_URL: nothing queued, read or sent, and say why', async (_, siteUrl) => {
    let read = 0;
    const bindings = {
      ...env,
      SITE_URL: siteUrl,
      INDEXNOW_URL: `${indexNowApi}/indexnow`,
      ASSETS: {
        fetch: async () => {
          read++;
          return Response.json({ pages: V1 });
        },
      },
    } as unknown as Bindings;
    await runSchedule(bindings, { push: true, pull: false, upkeep: false });
    expect(read).toBe(0);
    expect(await indexNowRows()).toEqual([]);
    expect(await env.DB.prepare('SELECT count(*) AS n FROM indexnow_state').first<{ n: number }>()).toEqual({ n: 0 });
    const host = siteUrl ? new URL(siteUrl).host : '';
    if (host) expect(await received(host)).toEqual([]);

    const call = callWith({ SITE_URL: siteUrl });
    const shown = await status(call, await login());
    expect(shown).toEqual({ on: false, why: INDEXNOW_OFF_NO_DOMAIN, key: '', pending: 0 });
    expect(await storedKey(), 'no key is made while off').toBeNull();
  });

  it('should let the owner alone read the status: a manager gets 403, a visitor 401', async () => {
    const site = server(`https://${freshHost()}`, V1);
    await seedUser('manager', 'manager-password-1');
    const manager = await login({ username: 'manager', password: 'manager-password-1' });
    expect((await site.call('GET', '/api/admin/indexnow', { cookie: manager })).status).toBe(403);
    expect((await site.call('GET', '/api/admin/indexnow')).status).toBe(401);
  });

  it('should do nothing while the live site has no page list (built before it was written)', async () => {
    const host = freshHost();
    const site = server(`https://${host}`, null);
    await site.schedule();
    expect(await indexNowRows()).toEqual([]);
    expect(await received(host)).toEqual([]);
  });
});
