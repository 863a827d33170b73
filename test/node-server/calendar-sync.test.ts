import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NodeServer } from '../../worker/platform/node/server.ts';
import { apiAt, bodyOf } from '../typed-api.ts';
import { ROOT, signIn, startServer, tempDir } from './test-server.ts';

const SUTOCHNO = readFileSync(path.join(ROOT, 'test/fixtures/ical/sutochno.ics'), 'utf8');

/** Calendars as other platforms serve them, and the ways they fail, on 127.0.0.1. */
let feedOf: Record<string, string> = { '/sutochno.ics': SUTOCHNO };
const platform = createServer((req, res) => {
  const url = req.url ?? '';
  if (url === '/slow.ics') return; // never answers
  if (url === '/big.ics') {
    res.writeHead(200, { 'content-type': 'text/calendar' });
    const line = `X-PADDING:${'x'.repeat(1000)}\r\n`;
    res.write('BEGIN:VCALENDAR\r\n');
    for (let i = 0; i < 5300; i++) res.write(line);
    return res.end('END:VCALENDAR\r\n');
  }
  if (url === '/to-inside.ics') return res.writeHead(302, { location: 'http://10.0.0.7/cal.ics' }).end();
  const body = feedOf[url];
  if (body === undefined) return res.writeHead(404).end('not found');
  res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8' }).end(body);
});

let base = '';
let server: NodeServer;
const dataDir = tempDir('sync');
let api: ReturnType<typeof apiAt>;

beforeAll(async () => {
  platform.listen(0, '127.0.0.1');
  await once(platform, 'listening');
  base = `http://127.0.0.1:${(platform.address() as AddressInfo).port}`;
  server = await startServer({
    dataDir: dataDir(),
    adminPassword: 'sync-test-password',
    shutdownGraceMs: 500,
    // As `npm start` allows: a feed served on this machine may be tried.
    bindings: { ALLOW_LOOPBACK_FEEDS: '1' },
  });
  api = apiAt(server.url, { cookie: await signIn(server.url, 'sync-test-password') });
});
afterAll(async () => {
  await server.close();
  platform.closeAllConnections();
  platform.close();
});

describe('importing calendars over real HTTP (self-hosted server)', () => {
  it('should import a good feed and tell each failing one why, in Russian, within the limits', async () => {
    const cabin = await bodyOf(
      await api.cabins.$post({ json: { name: 'Домик', description: 'У моря', pricePerNight: 4000 } }),
      201,
    );
    const feeds = [
      ['Суточно', '/sutochno.ics'],
      ['Пропал', '/gone.ics'],
      ['Огромный', '/big.ics'],
      ['Молчит', '/slow.ics'],
      ['В сеть', '/to-inside.ics'],
    ].map(([name, p]) => ({ name, url: `${base}${p}` }));
    const param = { id: String(cabin.id) };
    expect((await api.admin.cabins[':id'].feeds.$put({ param, json: { feeds } })).status).toBe(200);

    const started = Date.now();
    const sync = await api.admin['calendar-sync'].$post();
    expect(sync.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(15_000);
    const results = Object.fromEntries((await bodyOf(sync, 200)).results.map((r) => [r.name, r]));
    expect(results['Суточно']).toMatchObject({ ok: true, events: 2, error: null });
    expect(results['Пропал']).toMatchObject({ ok: false, error: 'Не удалось загрузить календарь: сервер ответил 404' });
    expect(results['Огромный']).toMatchObject({
      ok: false,
      error: 'Календарь больше 5 МБ: такой не загружается. Прежние даты сохранены',
    });
    expect(results['Молчит']).toMatchObject({ ok: false, error: 'Сервер календаря не ответил за 10 секунд' });
    expect(results['В сеть']!.ok).toBe(false);
    expect(results['В сеть']!.error).toContain('внутреннюю сеть');

    const availability = await bodyOf(await apiAt(server.url).cabins[':id'].availability.$get({ param }), 200);
    expect(availability.busy).toEqual([{ start: '2027-07-01', end: '2027-07-10' }]);

    // The platform breaks: the last good import stays, the error shows.
    expect((await api.admin.cabins[':id'].feeds.$put({ param, json: { feeds: feeds.slice(0, 1) } })).status).toBe(200);
    feedOf = { '/sutochno.ics': '<!doctype html><p>Service unavailable</p>' };
    const again = await bodyOf(await api.admin['calendar-sync'].$post(), 200);
    const sutochno = again.results.find((r) => r.name === 'Суточно')!;
    expect(sutochno.ok).toBe(false);
    expect(sutochno.error).toMatch(/^Календарь не читается/);
    const calendar = await bodyOf(await api.admin.cabins[':id'].calendar.$get({ param }), 200);
    expect(calendar.busy.map((b) => b.label)).toEqual(['Суточно', 'Суточно']);
    const stored = calendar.feeds.find((f) => f.name === 'Суточно')!;
    expect(stored.eventCount).toBe(2);
    expect(stored.lastSuccessAt).not.toBeNull();
    expect(stored.lastError).toBe(sutochno.error);
  }, 40_000);
});
