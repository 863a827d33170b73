import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { addDays, todayInMoscow } from '../../schema/dates.ts';
import type { FunnelReport } from '../../schema/reports.ts';
import { BEACONS_PER_MINUTE, DIRECT_SOURCE, OTHER_SOURCE, VISIT_SOURCES_PER_DAY } from '../../schema/visits.ts';
import { freshIp, jsonOf, jsonRequest, login, resetDataWithAdmin, seedCabin, send, validBooking } from './helpers.ts';

// Where visitors come from and how far they get (docs/api.md «Visits and sources»), on both
// runtimes: the beacon the public pages send, the source a booking keeps, and «Сводка»'s funnel.

beforeEach(resetDataWithAdmin);

const today = todayInMoscow();
const PERIOD = `?from=${addDays(today, -1)}&to=${today}`;

function beacon(body: unknown, ip = '203.0.113.7') {
  return send('POST', '/api/beacon', {
    ip,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
  });
}

async function funnel(query = PERIOD): Promise<FunnelReport> {
  const cookie = await login();
  return jsonOf<FunnelReport>(await send('GET', `/api/admin/reports/funnel${query}`, { cookie }), 200);
}

const stored = async () =>
  (
    await env.DB.prepare(
      'SELECT kind, source, path, cabin_id AS cabinId, count FROM visit_counts ORDER BY kind, source, path',
    ).all<{
      kind: string;
      source: string;
      path: string;
      cabinId: number;
      count: number;
    }>()
  ).results;

describe('the public pages counting their visits', () => {
  it('should answer 204 with no cookie, and count a visit from vk, its search, card and dates under «vk»', async () => {
    const { id: cabin } = await seedCabin();
    const utm = { source: 'VK', medium: 'cpc', campaign: 'leto' };
    const answers = await Promise.all([
      beacon({ kind: 'view', path: '/', utm, ref: 'https://vk.com/wall-1', landing: true }),
      beacon({ kind: 'view', path: '/cabins', utm, ref: 'https://kaspiy.test/' }),
      beacon({ kind: 'search', path: '/cabins', utm }),
      beacon({ kind: 'card', path: `/cabin/${cabin}`, utm, cabinId: cabin }),
      beacon({ kind: 'dates', path: `/cabin/${cabin}`, utm, cabinId: cabin }),
    ]);
    for (const res of answers) {
      expect(res.status).toBe(204);
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    const report = await funnel();
    const vk = report.bySource.find((s) => s.source === 'vk');
    expect(vk).toMatchObject({ visits: 1, views: 2, searches: 1, cards: 1, dates: 1, requests: 0 });
    expect(report.byCabin).toEqual([
      expect.objectContaining({ cabinId: cabin, cards: 1, dates: 1, requests: 0, conversion: 0 }),
    ]);
    expect(report.days).toEqual([expect.objectContaining({ day: today, visits: 1, cards: 1 })]);
  });

  it('should keep the sums the funnel reads equal to the counting, whatever is added, capped or removed', async () => {
    const { id: cabin } = await seedCabin();
    await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        beacon(
          {
            kind: (['view', 'card', 'dates', 'search'] as const)[i % 4],
            path: i % 4 === 0 ? `/page-${i % 3}` : `/cabin/${cabin}`,
            utm: { source: `src${i % 3}` },
            cabinId: i % 4 === 1 || i % 4 === 2 ? cabin : undefined,
            landing: i % 8 === 0,
          },
          `198.51.100.${i % 5}`,
        ),
      ),
    );
    // Rows removed (a restore of an older copy, a purge): the sums follow them down.
    await env.DB.prepare("DELETE FROM visit_counts WHERE source = 'src2' AND kind = 'view'").run();
    // The day rows, and the month rows ('m' and the month) the funnel reads whole months from.
    const sums = async (table: string, by: string, months: boolean) =>
      (
        await env.DB.prepare(
          `SELECT day, kind, ${by} AS k, count FROM ${table} WHERE count <> 0 AND day ${months ? '' : 'NOT '}LIKE 'm%' ORDER BY 1, 2, 3`,
        ).all()
      ).results;
    const summed = async (by: string, months: boolean, where = '') =>
      (
        await env.DB.prepare(
          `SELECT ${months ? "'m' || substr(day, 1, 7)" : 'day'} AS day, kind, ${by} AS k, sum(count) AS count FROM visit_counts ${where} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
        ).all()
      ).results;
    for (const months of [false, true]) {
      expect(await sums('visit_sources', 'source', months)).toEqual(await summed('source', months));
      expect(await sums('visit_cabins', 'cabin_id', months)).toEqual(
        await summed('cabin_id', months, 'WHERE cabin_id > 0'),
      );
      expect((await sums('visit_cabins', 'cabin_id', months)).length).toBeGreaterThan(0);
    }
  });

  it('should count a period of whole months and days at its edges once each, from either grain', async () => {
    // Three months of counting written straight in, as the beacons of those days would leave it.
    const { id: cabin } = await seedCabin();
    const days = ['2026-03-30', '2026-03-31', '2026-04-01', '2026-04-15', '2026-04-30', '2026-05-01', '2026-05-02'];
    await env.DB.batch(
      days.map((day, i) =>
        env.DB.prepare(
          "INSERT INTO visit_counts (day, kind, source, path, cabin_id, count) VALUES (?, 'card', 'vk', ?, ?, ?)",
        ).bind(day, `/cabin/${cabin}`, cabin, 10 ** i),
      ),
    );
    const sum = (from: string, to: string) => days.reduce((n, d, i) => (d >= from && d <= to ? n + 10 ** i : n), 0);
    for (const [from, to] of [
      ['2026-03-31', '2026-05-01'], // a whole April between two edge days
      ['2026-04-01', '2026-04-30'], // one whole month
      ['2026-03-01', '2026-05-31'], // three whole months
      ['2026-04-02', '2026-04-29'], // inside one month: days only
      ['2026-03-31', '2026-04-01'], // across a month's end, no whole month
    ] as const) {
      const r = await funnel(`?from=${from}&to=${to}`);
      // By day (day rows), by source and by cabin (month rows and edge days): the same count.
      expect(r.total.cards, `${from}…${to}`).toBe(sum(from, to));
      expect(r.bySource.find((x) => x.source === 'vk')?.cards ?? 0, `${from}…${to}`).toBe(sum(from, to));
      expect(r.byCabin.find((x) => x.cabinId === cabin)?.cards ?? 0, `${from}…${to}`).toBe(sum(from, to));
    }
  });

  it("should name a visit by another site's host, or as a direct one, and never by the site's own host", async () => {
    await beacon({ kind: 'view', path: '/', ref: 'https://www.yandex.ru/search/?text=домик', landing: true });
    await beacon({ kind: 'view', path: '/', landing: true });
    await beacon({ kind: 'view', path: '/', ref: 'http://127.0.0.1/cabins', landing: true });
    const sources = (await funnel()).bySource.map((s) => [s.source, s.visits]);
    expect(sources).toEqual(
      expect.arrayContaining([
        ['yandex.ru', 1],
        [DIRECT_SOURCE, 2],
      ]),
    );
    expect(sources).toHaveLength(2);
  });

  it("should store nothing of a guest's page or of any address's query, where a token could be", async () => {
    await beacon({ kind: 'view', path: '/b/0123456789abcdef0123456789abcdef0123', landing: true });
    await beacon({ kind: 'view', path: '/cabins?token=secret123&utm_source=x', landing: true });
    const rows = await stored();
    expect(JSON.stringify(rows)).not.toMatch(/0123456789abcdef|secret123|token/);
    expect(rows).toEqual([
      { kind: 'dropped', source: '-', path: '-', cabinId: 0, count: 1 },
      { kind: 'visit', source: DIRECT_SOURCE, path: '/cabins', cabinId: 0, count: 1 },
    ]);
  });

  it('should drop and count bad beacons, still answering 204', async () => {
    const bad = [
      '{',
      '[]',
      JSON.stringify({ kind: 'buy', path: '/' }),
      JSON.stringify({ kind: 'view', path: 'x' }),
      'x'.repeat(10_000),
    ];
    for (const body of bad) expect((await beacon(body)).status).toBe(204);
    expect(await stored()).toEqual([{ kind: 'dropped', source: '-', path: '-', cabinId: 0, count: bad.length }]);
    expect((await funnel()).dropped).toBe(bad.length);
  });

  it('should count no more than the limit a minute from one address, and the rest as dropped', async () => {
    const ip = freshIp();
    for (let i = 0; i < BEACONS_PER_MINUTE + 5; i++)
      expect((await beacon({ kind: 'view', path: '/' }, ip)).status).toBe(204);
    const rows = await stored();
    expect(rows.find((r) => r.kind === 'view')?.count).toBe(BEACONS_PER_MINUTE);
    expect(rows.find((r) => r.kind === 'dropped')?.count).toBe(5);
    // Another address is not held back by it.
    expect((await beacon({ kind: 'view', path: '/' }, freshIp())).status).toBe(204);
    expect((await stored()).find((r) => r.kind === 'view')?.count).toBe(BEACONS_PER_MINUTE + 1);
    // The sender is kept only as a hash with the day's salt, never as the address.
    const keys = (await env.DB.prepare("SELECT key FROM rate_limits WHERE key LIKE 'beacon:%'").all<{ key: string }>())
      .results;
    expect(keys.length).toBe(2);
    expect(JSON.stringify(keys)).not.toContain(ip);
  });

  it('should keep a day bounded under a flood of made-up sources, counting every beacon', async () => {
    const flood = VISIT_SOURCES_PER_DAY + 20;
    for (let i = 0; i < flood; i++)
      await beacon({ kind: 'view', path: '/', utm: { source: `fake-${i}` }, landing: true }, freshIp());
    const rows = await stored();
    expect(new Set(rows.map((r) => r.source)).size).toBe(VISIT_SOURCES_PER_DAY + 1);
    expect(rows.find((r) => r.source === OTHER_SOURCE)?.count).toBe(20);
    expect(rows.reduce((sum, r) => sum + r.count, 0)).toBe(flood);
  });

  it('should count a cabin that does not exist as no cabin', async () => {
    await beacon({ kind: 'card', path: '/cabin/999', cabinId: 999 });
    expect((await stored())[0]).toMatchObject({ kind: 'card', cabinId: 0 });
  });
});

describe('a booking that keeps where its visit came from', () => {
  it('should keep the tags and only the host of the referrer, and show the booking under its source', async () => {
    const { id: cabin } = await seedCabin();
    const source = {
      utmSource: 'vk',
      utmMedium: 'cpc',
      utmCampaign: 'leto',
      referrer: 'https://vk.com/away.php?to=x&token=abc',
    };
    const made = await jsonRequest('POST', '/api/bookings', validBooking(cabin, { source }), { ip: freshIp() });
    const { id } = await jsonOf<{ id: number }>(made, 201);
    const row = await env.DB.prepare('SELECT source FROM bookings WHERE id = ?').bind(id).first<{ source: string }>();
    expect(JSON.parse(row!.source)).toEqual({
      utmSource: 'vk',
      utmMedium: 'cpc',
      utmCampaign: 'leto',
      referrer: 'vk.com',
    });
    const report = await funnel();
    expect(report.bySource.find((s) => s.source === 'vk')).toMatchObject({ requests: 1, confirmed: 0 });
    expect(report.total.requests).toBe(1);
    expect(report.byCabin[0]).toMatchObject({ cabinId: cabin, requests: 1 });
  });

  it('should take a booking whose source does not read, dropping only the source', async () => {
    const { id: cabin } = await seedCabin();
    const made = await jsonRequest('POST', '/api/bookings', validBooking(cabin, { source: { utmSource: 5, x: 1 } }), {
      ip: freshIp(),
    });
    const { id } = await jsonOf<{ id: number }>(made, 201);
    const row = await env.DB.prepare('SELECT source FROM bookings WHERE id = ?')
      .bind(id)
      .first<{ source: string | null }>();
    expect(row!.source).toBeNull();
    expect((await funnel()).bySource).toEqual([expect.objectContaining({ source: DIRECT_SOURCE, requests: 1 })]);
  });

  it('should refuse a period that does not read, in Russian', async () => {
    const cookie = await login();
    const res = await send('GET', '/api/admin/reports/funnel?from=2026-13-01&to=2026-01-01', { cookie });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: expect.stringMatching(/[а-я]/) });
  });
});
