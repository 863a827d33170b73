import dns2 from 'dns2';
import { Resolver } from 'node:dns/promises';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FeedAddressRefused } from '../../worker/platform/ports.ts';
import { nodeFeedFetch } from '../../worker/platform/node/feed-fetch.ts';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { apiAt, bodyOf } from '../typed-api.ts';
import { ROOT, signIn, startServer, tempDir } from './test-server.ts';

const SUTOCHNO = readFileSync(path.join(ROOT, 'test/fixtures/ical/sutochno.ics'), 'utf8');
const INSIDE = 'Адрес календаря указывает во внутреннюю сеть: такой адрес нельзя загрузить';

/** The other platform's calendar server, on 127.0.0.1: it records what reached it. */
const reached: string[] = [];
let platformPort = 0;
const platform = createServer((req, res) => {
  reached.push(req.url ?? '');
  if (req.url === '/to-inside.ics')
    return res.writeHead(302, { location: `http://inside.example:${platformPort}/sutochno.ics` }).end();
  res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(SUTOCHNO);
});

/**
 * A DNS server on 127.0.0.1 that answers as the test says: each name's answers in turn, the
 * last one repeated (a rebinding server changes its answer between lookups). It counts queries.
 */
const answers: Record<string, string[][]> = {};
const asked: Record<string, number> = {};
const nameServer = dns2.createUDPServer((request, send) => {
  const response = dns2.Packet.createResponseFromRequest(request);
  const question = request.questions[0]!;
  const name = question.name.toLowerCase();
  const turns = answers[name] ?? [];
  const n = (asked[name] = (asked[name] ?? 0) + 1);
  if (question.type === dns2.Packet.TYPE.A) {
    for (const address of turns[Math.min(n, turns.length) - 1] ?? [])
      response.answers.push(dns2.Packet.createResourceFromQuestion(question, { ttl: 0, address }));
  }
  send(response);
});

const dataDir = tempDir('feed-dns');
/** `npm run serve` as an owner runs it: loopback refused. */
let served: NodeServer;
/** As a local run allows: loopback may be fetched, the inside of the network never. */
let local: NodeServer;

async function start(name: string, allowLoopback: boolean, resolve: (h: string) => Promise<string[]>) {
  const server = await startServer({
    dataDir: path.join(dataDir(), name),
    adminPassword: 'dns-test-password',
    shutdownGraceMs: 500,
    bindings: { FEED_FETCH: nodeFeedFetch({ resolve }), ...(allowLoopback ? { ALLOW_LOOPBACK_FEEDS: '1' } : {}) },
  });
  const api = apiAt(server.url, { cookie: await signIn(server.url, 'dns-test-password') });
  const cabin = await bodyOf(
    await api.cabins.$post({ json: { name: 'Домик', description: 'У моря', pricePerNight: 4000 } }),
    201,
  );
  /** Saves these feeds for the cabin and imports them now: each feed's result by name. */
  const sync = async (feeds: Record<string, string>) => {
    const put = await api.admin.cabins[':id'].feeds.$put({
      param: { id: String(cabin.id) },
      json: { feeds: Object.entries(feeds).map(([n, url]) => ({ name: n, url })) },
    });
    expect(put.status).toBe(200);
    const res = await api.admin['calendar-sync'].$post();
    expect(res.status).toBe(200);
    return Object.fromEntries((await bodyOf(res, 200)).results.map((r) => [r.name, r]));
  };
  return Object.assign(server, { sync });
}

let syncServed: Awaited<ReturnType<typeof start>>['sync'];
let syncLocal: Awaited<ReturnType<typeof start>>['sync'];

beforeAll(async () => {
  platform.listen(0, '127.0.0.1');
  await once(platform, 'listening');
  platformPort = (platform.address() as AddressInfo).port;
  await nameServer.listen(0, '127.0.0.1');
  const resolver = new Resolver({ timeout: 2000, tries: 1 });
  resolver.setServers([`127.0.0.1:${nameServer.address().port}`]);
  const resolve = (hostname: string) => resolver.resolve4(hostname);
  served = await start('served', false, resolve);
  syncServed = (served as Awaited<ReturnType<typeof start>>).sync;
  local = await start('local', true, resolve);
  syncLocal = (local as Awaited<ReturnType<typeof start>>).sync;
});
afterAll(async () => {
  await served?.close();
  await local?.close();
  nameServer.close();
  platform.closeAllConnections();
  platform.close();
});

const feedAt = (host: string, p = '/sutochno.ics') => `http://${host}:${platformPort}${p}`;

describe('calendar feeds checked after DNS (self-hosted server)', () => {
  it('should refuse a public-looking name that resolves to this machine, in Russian, sending it nothing', async () => {
    answers['loop.example'] = [['127.0.0.1']];
    reached.length = 0;
    const results = await syncServed({ Петля: feedAt('loop.example') });
    expect(results['Петля']).toMatchObject({ ok: false, error: INSIDE });
    expect(reached).toEqual([]);
  });

  it('should refuse a name that resolves into the private network, even among public-looking answers', async () => {
    answers['lan.example'] = [['10.0.0.7']];
    answers['mixed.example'] = [['127.0.0.1', '192.168.1.5']];
    reached.length = 0;
    const results = await syncLocal({ Сеть: feedAt('lan.example'), Смесь: feedAt('mixed.example') });
    expect(results['Сеть']).toMatchObject({ ok: false, error: INSIDE });
    expect(results['Смесь']).toMatchObject({ ok: false, error: INSIDE });
    expect(reached).toEqual([]);
  });

  it('should connect to the address it checked, so a rebinding answer on a second lookup never counts, and check afresh next time', async () => {
    // First answer allowed (loopback, in a local run); every later one inside the network.
    answers['rebind.example'] = [['127.0.0.1'], ['10.0.0.7']];
    asked['rebind.example'] = 0;
    reached.length = 0;
    const first = await syncLocal({ Ребинд: feedAt('rebind.example') });
    expect(first['Ребинд']).toMatchObject({ ok: true, error: null });
    expect(first['Ребинд']!.events).toBeGreaterThan(0);
    expect(asked['rebind.example']).toBe(1); // one lookup, the one checked, decided the connection
    expect(reached).toEqual(['/sutochno.ics']);

    // The next import resolves again (no connection kept) and meets the inside answer.
    const second = await syncLocal({ Ребинд: feedAt('rebind.example') });
    expect(second['Ребинд']).toMatchObject({ ok: false, error: INSIDE });
    expect(reached).toEqual(['/sutochno.ics']);
  });

  it("should check a redirect's host after DNS the same way", async () => {
    answers['feeds.example'] = [['127.0.0.1']];
    answers['inside.example'] = [['192.168.1.5']];
    reached.length = 0;
    const results = await syncLocal({ Перенаправление: feedAt('feeds.example', '/to-inside.ics') });
    expect(results['Перенаправление']).toMatchObject({ ok: false, error: INSIDE });
    expect(reached).toEqual(['/to-inside.ics']);
  });
});

describe('the feed fetch port with the system resolver', () => {
  it('should refuse localhost unless loopback is allowed, and fetch it where it is', async () => {
    const fetchFeed = nodeFeedFetch();
    const init = { signal: AbortSignal.timeout(10_000), headers: {} };
    await expect(fetchFeed(new URL(feedAt('localhost')), { ...init, allowLoopback: false })).rejects.toBeInstanceOf(
      FeedAddressRefused,
    );
    await expect(fetchFeed(new URL(feedAt('127.0.0.1')), { ...init, allowLoopback: false })).rejects.toBeInstanceOf(
      FeedAddressRefused,
    );
    await expect(
      fetchFeed(new URL(feedAt('[::ffff:127.0.0.1]')), { ...init, allowLoopback: true }),
    ).rejects.toBeInstanceOf(FeedAddressRefused);
    const res = await fetchFeed(new URL(feedAt('localhost')), { ...init, allowLoopback: true });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('BEGIN:VCALENDAR');
  });
});
